import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The job behind `sweep`: one design run once per value of one knob (same users, same seed),
/// and the trade-off between requests and staleness it shows.
public struct SweepJob: Sendable {
    /// How the sweep is written.
    package enum Format: String, Sendable, CaseIterable {
        case markdown, csv, json
    }

    /// The sweep: a scenario, a design, a knob and its values.
    public var sweep: Sweep
    /// Worker threads (nil: all cores); the result does not depend on it.
    public var threads: Int?
    /// The prices the cost column uses.
    public var prices: PriceTable

    /// Checks that the price table prices the scenario's model before any work is done.
    public init(sweep: Sweep, threads: Int? = nil, prices: PriceTable = .bundled) throws {
        if sweep.scenario.api.pricedPerToken { _ = try prices.price(for: sweep.scenario.api.model) }
        self.sweep = sweep
        self.threads = threads
        self.prices = prices
    }

    /// Runs every value of the knob.
    public func run() -> SweepResult { sweep.run(threads: threads, prices: prices) }

    /// Runs the sweep and renders it in `format` for `destination`, after a note of what the
    /// sweep adds to the design for the knob to act (a background task for `background`), if anything.
    package func output(format: Format, to destination: JobOutput.Destination) throws -> JobOutput {
        let result = run()
        let text: String
        switch format {
        case .csv: text = result.csv()
        case .json: text = try JSONOutput.encode(result)
        case .markdown: text = result.markdown()
        }
        var output = JobOutput()
        if let addition = sweep.knob.addition(to: sweep.design) { output.items.append(.note("widget-quota sweep: note: \(addition)\n")) }
        output.items.append(.text(text, to: destination, announce: false))
        return output
    }
}
