import Testing
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaTestSupport

@Suite("sweep tables") struct SweepNoteTests {
    /// A knob the design lacks is given to it, and the sweep's Markdown opens with a note saying so.
    @Test("the Markdown notes a knob the design lacks", arguments: [("direct", Sweep.Knob.ttl, "has no cache")])
    func theMarkdownNotesAKnobTheDesignLacks(design: String, knob: Sweep.Knob, says: String) throws {
        let s = TestSupport.smallScenario(users: [30], runs: 1, days: 7)
        let d = try #require(s.availableDesigns.first { $0.name == design })
        let r = try Sweep(scenario: s, design: d, knob: knob, values: [60], users: 30).run(threads: 2)
        #expect(r.markdown().contains("**Note:** \(design) \(says)"))
    }
}
