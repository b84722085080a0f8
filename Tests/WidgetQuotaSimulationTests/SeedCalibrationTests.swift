import Testing
import WidgetQuotaTestSupport

/// The Gemini widget report's table: direct ≈ 30 calls a day (900 a month), the cache ≈ 3 a day (90 a month).
@Suite("seed calibration") struct SeedCalibrationTests {
    @Test("defaults reproduce seed 000 table") func defaultsReproduceSeed000Table() {
        var s = TestSupport.smallScenario(users: [600], runs: 1, days: 30)
        s.horizon.seed = 7
        let result = TestSupport.run(s, designs: ["direct", "cache-bgtask"], central: true)
        let direct = TestSupport.row(result, "direct").requestsPerUserMonth.mean
        let cache = TestSupport.row(result, "cache-bgtask").requestsPerUserMonth.mean
        #expect(abs(direct - 900) / 900 < 0.05, "direct: \(direct) requests per user per month")
        #expect(abs(cache - 90) / 90 < 0.10, "cache-bgtask: \(cache) requests per user per month")
    }
}
