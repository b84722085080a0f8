import Testing
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// The Gemini widget report's table: direct "about 30 calls/day" (900 a month), the cache "about
/// 3 calls/day" (90 a month).
@Suite("seed calibration") struct SeedCalibrationTests {
    /// "About 30" and "about 3" a day are whole numbers: the model's mean must lie within what
    /// rounds to them (29.5–30.5 and 2.5–3.5 a day, times 30 days), give or take four standard
    /// errors of the simulated mean, so that the seed cannot decide the outcome.
    @Test("the defaults reproduce the Gemini widget report's table", arguments: [("direct", 30.0), ("cache-bgtask", 3.0)])
    func defaultsReproduceTheReportsTable(design: String, perDay: Double) {
        let users = 1_200
        var s = TestSupport.smallScenario(users: [users], runs: 1, days: 30)
        s.horizon.seed = 7
        let month = TestSupport.row(TestSupport.run(s, designs: [design], central: true), design).requestsPerUserMonth
        let margin = StandardError.bound * StandardError.ofMean(month, count: users)
        let rounded = ((perDay - 0.5) * 30)...((perDay + 0.5) * 30)
        #expect(
            month.mean >= rounded.lowerBound - margin && month.mean <= rounded.upperBound + margin,
            "\(design): \(month.mean) requests per user a month; the report's figure rounds from \(rounded) (± \(margin))")
    }
}
