import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// What the per-minute request series of one population in one run says about quotas.
package struct LoadSummary: Sendable, Equatable {
    /// Requests in the busiest minute.
    package var peakPerMinute: Double
    /// Requests in the busiest clock hour of UTC (an hourly limit resets on the hour).
    package var peakPerHour: Double
    /// Mean requests per minute over the counted window.
    package var meanPerMinute: Double
    /// Requests in the busiest complete quota day (the quota's own day, e.g. midnight Pacific).
    package var peakQuotaDay: Double
    /// Index of that quota day, 0 = first complete quota day in the window.
    package var busiestQuotaDay: Int
    /// Sum of the series.
    package var total: Double
    /// Requests in each complete quota day, in order (what a daily allowance is billed against).
    package var quotaDayTotals: [Double] = []
    /// Busiest minute in the hour after the earliest outage ends (the retry storm), if there is one.
    package var afterOutagePeak: Double?
    /// The busiest minute in the same hour of the day on days without an outage, averaged.
    package var afterOutageUsualPeak: Double?
    /// Requests and the busiest minute of each calendar event's UTC day (`SimulationModel.eventDays`).
    package var eventDayTotals: [Double] = []
    package var eventDayPeaks: [Double] = []
    /// The busiest clock hour of each calendar event's UTC day.
    package var eventDayHourPeaks: [Double] = []

    /// The peaks a tier's limits are held against.
    package var peaks: QuotaPeaks { .init(perMinute: peakPerMinute, perHour: peakPerHour, quotaDay: peakQuotaDay) }

    /// Summarises a per-minute series that starts at UTC midnight of the first counted day.
    package init(series: UnsafeBufferPointer<Double>, model: SimulationModel) {
        // One pass: the running total and the quota day's sum are two independent chains of
        // additions (each in minute order), so the processor runs them side by side.
        var peak = 0.0
        var total = 0.0
        var best = 0.0
        var bestDay = 0
        let firstQuotaMinute = model.quotaStartMinute
        let quotaDays = model.completeQuotaDays
        var t = 0
        for day in 0..<quotaDays {
            let start = firstQuotaMinute + day * TimeUnits.minutesPerDay
            while t < start {
                total += series[t]
                peak = Swift.max(peak, series[t])
                t += 1
            }
            var sum = 0.0
            while t < start + TimeUnits.minutesPerDay {
                let v = series[t]
                total += v
                peak = Swift.max(peak, v)
                sum += v
                t += 1
            }
            quotaDayTotals.append(sum)
            if sum > best {
                best = sum
                bestDay = day
            }
        }
        while t < series.count {
            total += series[t]
            peak = Swift.max(peak, series[t])
            t += 1
        }
        peakPerMinute = peak
        peakPerHour = LoadSummary.busiestClockHour(series, from: 0, to: series.count)
        self.total = total
        meanPerMinute = series.isEmpty ? 0 : total / Double(series.count)
        peakQuotaDay = best
        busiestQuotaDay = bestDay
        if model.rollingQuotaDay, let (sum, start) = LoadSummary.busiest24Hours(series) {
            // Any 24 hours in a row: the busiest window, at least as busy as any calendar day.
            peakQuotaDay = sum
            busiestQuotaDay = start / TimeUnits.minutesPerDay
        }
        for day in model.eventDays {
            var sum = 0.0
            var top = 0.0
            for i in (day * TimeUnits.minutesPerDay)..<min((day + 1) * TimeUnits.minutesPerDay, series.count) {
                sum += series[i]
                top = Swift.max(top, series[i])
            }
            eventDayTotals.append(sum)
            eventDayPeaks.append(top)
            eventDayHourPeaks.append(
                LoadSummary.busiestClockHour(
                    series, from: day * TimeUnits.minutesPerDay, to: min((day + 1) * TimeUnits.minutesPerDay, series.count)))
        }
        if let window = LoadSummary.stormWindow(model) {
            func windowPeak(_ from: Int) -> Double {
                var p = 0.0
                for i in max(from, 0)..<min(from + TimeUnits.minutesPerHour, series.count) { p = max(p, series[i]) }
                return p
            }
            afterOutagePeak = windowPeak(window.start)
            let disturbedDays = Set(window.days)
            let minuteOfDay = window.start % TimeUnits.minutesPerDay
            let usual = (0..<(series.count / TimeUnits.minutesPerDay)).filter { !disturbedDays.contains($0) }
                .map { windowPeak($0 * TimeUnits.minutesPerDay + minuteOfDay) }
            afterOutageUsualPeak = usual.isEmpty ? nil : usual.reduce(0, +) / Double(usual.count)
        }
    }

    /// The most requests in one clock hour of `series[from..<to]` (`from` a whole hour; the
    /// series starts at UTC midnight).
    package static func busiestClockHour(_ series: UnsafeBufferPointer<Double>, from: Int, to: Int) -> Double {
        var best = 0.0
        var start = from
        while start < to {
            let end = min(start + TimeUnits.minutesPerHour, to)
            var sum = 0.0
            for t in start..<end { sum += series[t] }
            best = Swift.max(best, sum)
            start = end
        }
        return best
    }

    /// The busiest 1,440 consecutive minutes of `series` and the minute they start at (nil when
    /// the series is shorter than a day).
    package static func busiest24Hours(_ series: UnsafeBufferPointer<Double>) -> (sum: Double, start: Int)? {
        let day = TimeUnits.minutesPerDay
        guard series.count >= day else { return nil }
        var sum = 0.0
        for t in 0..<day { sum += series[t] }
        var best = sum
        var start = 0
        for t in day..<series.count {
            sum += series[t] - series[t - day]
            if sum > best {
                best = sum
                start = t - day + 1
            }
        }
        return (best, start)
    }

    /// The hour after the earliest outage ends, as counted minutes, and the counted days that any
    /// outage or the hour after it touches (none of which is an ordinary day to compare with).
    package static func stormWindow(_ model: SimulationModel) -> (start: Int, days: [Int])? {
        guard let o = model.outages.first else { return nil }
        let start = model.countedMinute(utc: o.end)
        guard start >= 0, start + TimeUnits.minutesPerHour <= model.countedMinutes else { return nil }
        var days = Set<Int>()
        for outage in model.outages {
            let first = max(model.countedMinute(utc: outage.start), 0) / TimeUnits.minutesPerDay
            let last = (model.countedMinute(utc: outage.end) + TimeUnits.minutesPerHour) / TimeUnits.minutesPerDay
            if first <= last { days.formUnion(first...last) }
        }
        return (start, days.sorted())
    }

}
