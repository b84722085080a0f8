import Testing
import WidgetQuotaLogs
import WidgetQuotaModel

/// Logs taken with WidgetKit Developer Mode or a debugger attached show reloads no production
/// budget allows; `analyze` says so and how to capture honest ones.
@Suite("Developer Mode logs") struct DeveloperModeLogTests {
    /// A 5-minute poll without a budget (well over 100 getTimeline calls an instance-day) is
    /// flagged; under the production budget of 40–70 it is not.
    @Test("logs beyond any production budget are flagged", arguments: [false, true])
    func logsBeyondAnyBudgetAreFlagged(budgetsBind: Bool) throws {
        var poll = DesignPresets.directPoll15m
        poll.reloadPolicy = .after(minutes: 5)
        poll.entrySpacingMinutes = 5
        let (_, _, analysis) = try RoundTripTests.analyse(poll, style: .trace, devices: 6, days: 3, budgetsBind: budgetsBind)
        let note = analysis.notes.first { $0.contains("Developer Mode") }
        if budgetsBind {
            #expect(note == nil, "\(analysis.notes)")
        } else {
            let text = try #require(note, "\(analysis.notes)")
            #expect(text.contains("6 of 6 devices") && text.contains("log collect"), "\(text)")
        }
    }
}
