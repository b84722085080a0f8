import Foundation
import WidgetQuotaLogs
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Helpers shared by the log tests.
package enum LogTestSupport {
    /// The path of a fixture under Fixtures/logs.
    package static func fixture(_ name: String) -> String {
        Fixtures.path("logs/" + name)
    }

    /// Analyses text as one input called `name`.
    package static func analyze(_ text: String, name: String = "input", options: LogAnalyzer.Options = .init(), maxRead: Int = .max) throws
        -> LogAnalysis
    {
        var analyzer = LogAnalyzer(options: options)
        var source = MemoryByteSource(text, maxRead: maxRead)
        try analyzer.read(source: &source, name: name)
        return analyzer.analysis()
    }

    /// Analyses fixture files.
    package static func analyze(fixtures names: [String], options: LogAnalyzer.Options = .init()) throws -> LogAnalysis {
        var analyzer = LogAnalyzer(options: options)
        for name in names { try analyzer.read(path: fixture(name)) }
        return analyzer.analysis()
    }

    /// Sum of a per-day figure over every device-day.
    package static func total(_ a: LogAnalysis, _ f: (DeviceDay) -> Int) -> Int {
        a.measurements.flatMap(\.days).reduce(0) { $0 + f($1) }
    }
}
