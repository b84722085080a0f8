import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// Small, fast scenarios and helpers shared by the tests.
package enum TestSupport {
    /// A scenario small enough for debug-build tests: few users, few runs, two weeks.
    package static func smallScenario(users: [Int] = [200], runs: Int = 2, days: Int = 14, sample: Int? = nil) -> Scenario {
        var s = Scenario()
        s.horizon.users = users
        s.horizon.runs = runs
        s.horizon.days = days
        s.horizon.sampleUsers = sample ?? (users.max() ?? 1)
        s.api.outages = []
        return s
    }

    /// Runs the engine for the named designs.
    package static func run(
        _ scenario: Scenario, designs names: [String], threads: Int = 2,
        central: Bool = false
    ) -> SimulationResult {
        let designs = names.map { name in scenario.availableDesigns.first { $0.name == name }! }
        var parameters: (@Sendable (Int) -> RunParameters)?
        if central {
            let fixed = RunParameters.central(scenario)
            parameters = { _ in fixed }
        }
        return MonteCarloEngine(scenario: scenario, designs: designs, threads: threads, parameters: parameters).run()
    }

    /// The result row for a design and population.
    package static func row(_ result: SimulationResult, _ design: String, users: Int? = nil) -> DesignResult {
        result.results.first { $0.design == design && (users == nil || $0.users == users) }!
    }

    /// Runs the command line and captures its output.
    package static func cli(_ args: [String]) -> (code: ExitCode, out: String, err: String) {
        let box = Captured()
        let console = Console(out: { box.append(out: $0) }, err: { box.append(err: $0) })
        let code = CLI.run(args, console: console)
        return (code, box.out, box.err)
    }

    package final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var out = ""
        private(set) var err = ""
        package func append(out text: String) {
            lock.lock()
            out += text
            lock.unlock()
        }
        package func append(err text: String) {
            lock.lock()
            err += text
            lock.unlock()
        }
    }

    /// The first capture group of every match of `pattern` in `text` (`.` matches line breaks).
    package static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
    }
}
