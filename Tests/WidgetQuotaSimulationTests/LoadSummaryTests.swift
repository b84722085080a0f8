import Testing
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// A load summary must say what a plain reading of its series says: the busiest minute, the
/// month's total in minute order, and the busiest complete quota day on the quota's own clock.
@Suite("load summary") struct LoadSummaryTests {
    /// A model of `days` counted days whose quota day begins at `resetUTCOffsetHours`' midnight.
    static func model(days: Int, resetUTCOffsetHours: Double) -> SimulationModel {
        var s = TestSupport.smallScenario(users: [10], runs: 1, days: days)
        s.quotas.resetUTCOffsetHours = resetUTCOffsetHours
        let design = s.availableDesigns[0]
        return SimulationModel(scenario: s, design: design, run: 0, parameters: .central(s))
    }

    /// A series with a busy day, a fractional part when asked (sums then depend on their order),
    /// and its busiest minute late in the month.
    static func series(minutes: Int, fractional: Bool) -> [Double] {
        (0..<minutes).map { t in
            let base = Double((t &* 7_919) % 13) + (t / TimeUnits.minutesPerDay == 3 ? 5 : 0)
            let spike = t == minutes - 100 ? 400.0 : 0
            return (fractional ? base * 0.1 + Double(t % 7) * 0.013 : base) + spike
        }
    }

    @Test(
        "matches a plain reading of the series",
        arguments: [0.0, -8, 5.5, 13], [false, true])
    func matchesPlainReading(resetUTCOffsetHours: Double, fractional: Bool) throws {
        let model = Self.model(days: 6, resetUTCOffsetHours: resetUTCOffsetHours)
        let series = Self.series(minutes: model.countedMinutes, fractional: fractional)
        let summary = series.withUnsafeBufferPointer { LoadSummary(series: $0, model: model) }

        var total = 0.0
        for v in series { total += v }
        #expect(summary.total == total)
        #expect(summary.peakPerMinute == series.max())
        #expect(summary.peakPerMinute == series[series.count - 100], "the spike late in the month")
        #expect(summary.meanPerMinute == total / Double(series.count))

        // Complete quota days only, each summed in minute order; the first of equal days wins.
        let start = model.quotaStartMinute
        let days = (series.count - start) / TimeUnits.minutesPerDay
        try #require(days == model.completeQuotaDays)
        try #require(days >= 4, "the month holds several complete quota days")
        var best = 0.0
        var bestDay = 0
        for d in 0..<days {
            var sum = 0.0
            for t in (start + d * TimeUnits.minutesPerDay)..<(start + (d + 1) * TimeUnits.minutesPerDay) { sum += series[t] }
            if sum > best {
                best = sum
                bestDay = d
            }
        }
        #expect(summary.peakQuotaDay == best)
        #expect(summary.busiestQuotaDay == bestDay)
    }

    @Test("a quota day that begins off UTC midnight moves the busy UTC day's load across two quota days")
    func quotaClockDecides() {
        let utc = Self.model(days: 6, resetUTCOffsetHours: 0)
        let pacific = Self.model(days: 6, resetUTCOffsetHours: -8)
        #expect(utc.quotaStartMinute == 0)
        #expect(pacific.quotaStartMinute == 8 * TimeUnits.minutesPerHour)
        // Only UTC day 3 is busy: on the UTC clock its quota day is day 3; on the Pacific clock it
        // spans quota days 2 and 3, and the later one (16 of its hours) is the busier.
        let series = (0..<utc.countedMinutes).map { t in t / TimeUnits.minutesPerDay == 3 ? 1.0 : 0 }
        let onUTC = series.withUnsafeBufferPointer { LoadSummary(series: $0, model: utc) }
        let onPacific = series.withUnsafeBufferPointer { LoadSummary(series: $0, model: pacific) }
        #expect(onUTC.busiestQuotaDay == 3)
        #expect(onUTC.peakQuotaDay == Double(TimeUnits.minutesPerDay))
        #expect(onPacific.busiestQuotaDay == 3)
        #expect(onPacific.peakQuotaDay == Double(16 * TimeUnits.minutesPerHour))
        #expect(onUTC.total == onPacific.total)
    }
}
