import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Every command's usage line, help and parsing come from one list of options.
@Suite("Command declarations")
struct CommandDeclarationTests {
    static let specs = CLI.commands.map(\.spec)

    @Test("the usage line and the help list every option the command accepts", arguments: specs.map(\.name))
    func usageAndHelpListEveryOption(name: String) throws {
        let spec = try #require(Self.specs.first { $0.name == name })
        for option in spec.options {
            #expect(spec.usage.contains("[\(option.synopsis)]"), "usage of \(name) lacks --\(option.name)")
            #expect(spec.help.contains("  \(option.synopsis)"), "help of \(name) lacks --\(option.name)")
        }
        #expect(Set(spec.options.map(\.name)).count == spec.options.count, "\(name) declares an option twice")
        #expect(spec.usage.split(separator: "\n").allSatisfy { $0.count <= CommandSpec.width })
    }

    @Test("every option an example uses is one the command declares", arguments: specs.map(\.name))
    func examplesUseDeclaredOptions(name: String) throws {
        let spec = try #require(Self.specs.first { $0.name == name })
        let declared = Set(spec.options.map(\.name))
        for example in spec.examples {
            // Only the words of this command (an example may pipe into or follow another command).
            let segments = example.replacingOccurrences(of: "&&", with: "|").split(separator: "|")
            guard let segment = segments.first(where: { $0.contains("widget-quota \(name)") }),
                let start = segment.range(of: "widget-quota \(name)")
            else { continue }
            for word in segment[start.upperBound...].split(separator: " ") where word.hasPrefix("--") {
                #expect(declared.contains(String(word.dropFirst(2))), "example of \(name) uses undeclared \(word)")
            }
        }
    }

    @Test("shared options are the same declaration in every command that takes them")
    func sharedOptionsAreDeclaredOnce() {
        for shared in [Option.scenario, .seed, .threads, .prices, .failIf, .warnIf, .runs, .sampleUsers] {
            for spec in Self.specs {
                guard let own = spec.options.first(where: { $0.name == shared.name }) else { continue }
                // `analyze --scenario`, `designs --scenario` and `lint --scenario` read the base
                // scenario and so say so; `bench --threads` sets the threads of a figure that depends on them.
                if shared == .scenario && ["analyze", "designs", "lint"].contains(spec.name) { continue }
                if shared == .threads && spec.name == "bench" { continue }
                #expect(own.help == shared.help && own.value == shared.value, "\(spec.name) --\(shared.name) is declared apart")
            }
        }
    }

    @Test("an unknown option is a usage error that suggests the nearest declared one")
    func unknownOptionSuggests() {
        #expect(throws: WidgetQuotaError.usage("unknown option --sede; did you mean --seed?")) {
            try ParsedArguments(["--sede", "1"], options: [.seed, .scenario])
        }
        #expect(throws: WidgetQuotaError.usage("--seed needs a value (S)")) {
            try ParsedArguments(["--seed"], options: [.seed])
        }
        #expect(throws: WidgetQuotaError.usage("--quiet takes no value")) {
            try ParsedArguments(["--quiet=yes"], options: [.quiet])
        }
    }

    /// Options whose absence means "not done" (nothing written, no split chosen) or that a
    /// command needs, so that they have no default to show.
    static let withoutDefault: Set<String> = [
        "analyze --emit-scenario", "analyze --split", "analyze --train-days", "lint --emit-scenario", "trace --design",
        "scenario --check", "scenario --migrate", "lint --baseline", "lint --write-baseline", "diff --new-findings",
    ]

    @Test("help shows the default of every option that takes a value", arguments: specs.map(\.name))
    func helpShowsDefaults(name: String) throws {
        let spec = try #require(Self.specs.first { $0.name == name })
        for option in spec.options where option.value != nil && !option.repeatable {
            guard !Self.withoutDefault.contains("\(name) --\(option.name)") else { continue }
            // Writing to standard output instead of a file is the default `--out` names.
            let text = option.help.replacingOccurrences(of: "\n", with: " ")
            #expect(
                text.contains("default") || text.contains("instead of standard output"), "\(name) --\(option.name): no default in its help")
        }
    }

    @Test("standard input feeds one input: a second `-` is a usage error naming both")
    func standardInputOnce() throws {
        let analyze = try #require(CLI.commands.first { $0.spec.name == "analyze" }).spec
        try ParsedArguments(["-", "--scenario", "s.json"], options: analyze.options).expectStandardInputOnce(analyze)
        #expect(
            throws: WidgetQuotaError.usage(
                "standard input (-) feeds one input, and --scenario and PATH each name it; save all but one to a file")
        ) {
            try ParsedArguments(["-", "--scenario", "-"], options: analyze.options).expectStandardInputOnce(analyze)
        }
        let diff = TestSupport.cli(["diff", "-", "-"])
        #expect(diff.code == .usage && diff.err.contains("BASE.json and HEAD.json each name it"))
        // An output named `-` is standard output, not an input.
        let lint = try #require(CLI.commands.first { $0.spec.name == "lint" }).spec
        try ParsedArguments(["App", "--out", "-", "--config", "-"], options: lint.options).expectStandardInputOnce(lint)
    }
}
