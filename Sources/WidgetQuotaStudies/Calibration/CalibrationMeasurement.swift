import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaSupport

/// The figures `ScenarioCalibrator` measures from logs, one function per scenario field (or per
/// pair measured together), each over the devices with at least one measured day.
///
/// A measurement is a mean over devices and its standard error; the calibrator caps it to the
/// bounds `ScenarioValidator.Bounds` gives the field.
package enum CalibrationMeasurement {
    /// A measured figure and its standard error across devices.
    package struct Estimate: Equatable {
        package var value: Double
        package var standardError: Double

        package init(value: Double, standardError: Double) {
            self.value = value
            self.standardError = standardError
        }
    }

    /// The standard error of the mean of `values` (0 for fewer than two).
    static func standardError(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let m = Statistics.mean(values)
        let variance = values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)
        return (variance / Double(values.count)).squareRoot()
    }

    /// `population.multiWidgetShare`: the share of devices with more than one widget instance;
    /// `population.instancesWhenMulti`: their mean number of instances (nil when none has several).
    package static func widgetInstances(_ devices: [LogAnalysis.DeviceMeasurement]) -> (multiWidgetShare: Double, instancesWhenMulti: Int?)
    {
        let multi = devices.filter { $0.instances > 1 }
        let share = Double(multi.count) / Double(devices.count)
        guard !multi.isEmpty else { return (share, nil) }
        let instances = Int(Statistics.mean(multi.map { Double($0.instances) }).rounded())
        return (share, Swift.min(ScenarioValidator.Bounds.instancesWhenMulti.upperBound, instances))
    }

    /// `population.smartStackShare`: the share of devices whose logs name a Smart Stack among
    /// those whose logs say either way, with its binomial standard error.
    package static func smartStackShare(_ devices: [LogAnalysis.DeviceMeasurement]) -> Estimate? {
        let known = devices.filter { $0.smartStack != nil }
        guard !known.isEmpty else { return nil }
        let share = Double(known.filter { $0.smartStack == true }.count) / Double(known.count)
        return Estimate(value: share, standardError: (share * (1 - share) / Double(known.count)).squareRoot())
    }

    /// Per-instance getTimeline rates of the devices in a Smart Stack and of those outside one.
    static func stackRates(_ devices: [LogAnalysis.DeviceMeasurement]) -> (inside: [Double], outside: [Double]) {
        let known = devices.filter { $0.smartStack != nil }
        return (
            known.filter { $0.smartStack == true }.map(LogAnalyzer.instanceRate),
            known.filter { $0.smartStack == false }.map(LogAnalyzer.instanceRate)
        )
    }

    /// getTimeline calls per instance-day as the logs show them (WidgetKit's own where the logs
    /// name origins, every call where they do not): over the devices outside a Smart Stack and
    /// inside one, when every device's logs say which (`split`), and over every device.
    package struct LoggedTimelines: Equatable {
        package var all: Estimate
        package var outside: Estimate?
        package var inside: Estimate?
        /// Whether every device's logs say whether its widget is stacked, with some outside a stack.
        package var split: Bool { outside != nil }
    }

    package static func loggedTimelines(_ devices: [LogAnalysis.DeviceMeasurement]) -> LoggedTimelines {
        func estimate(_ rates: [Double]) -> Estimate? {
            rates.isEmpty ? nil : Estimate(value: Statistics.mean(rates), standardError: standardError(rates))
        }
        let all = estimate(devices.map(LogAnalyzer.instanceRate)) ?? Estimate(value: 0, standardError: 0)
        let known = devices.filter { $0.smartStack != nil }
        let (inStack, outside) = stackRates(devices)
        guard known.count == devices.count, !outside.isEmpty else { return LoggedTimelines(all: all) }
        return LoggedTimelines(all: all, outside: estimate(outside), inside: estimate(inStack))
    }

    /// `platform.systemReloadsPerDay` and `population.smartStackReloadsPerDay` as the logs show
    /// them, with no design to subtract: every logged call taken for WidgetKit's own, per
    /// instance-day, divided by the scenario's rarely-viewed mix; the stack's as the difference
    /// inside less outside (nil without both sides). Without the split, the Smart Stack share
    /// and rate of `population` are taken out of the rate over every device.
    package static func reloadsAsShown(
        _ logged: LoggedTimelines, population: Population, platform: Platform
    ) -> (system: Estimate, smartStack: Estimate?)? {
        let rarely = population.rarelyViewedShare
        let rarelyMix = 1 - rarely + rarely * platform.rarelyViewedReloadFactor
        guard rarelyMix > 0 else { return nil }
        if let outside = logged.outside {
            let system = Estimate(value: outside.value / rarelyMix, standardError: outside.standardError / rarelyMix)
            guard let inside = logged.inside else { return (system, nil) }
            let difference = Estimate(
                value: Swift.max(0, inside.value - outside.value) / rarelyMix,
                standardError: (inside.standardError * inside.standardError + outside.standardError * outside.standardError)
                    .squareRoot() / rarelyMix)
            return (system, difference)
        }
        let stacked = population.smartStackShare.central * population.smartStackReloadsPerDay.central
        return (
            Estimate(
                value: Swift.max(0, logged.all.value / rarelyMix - stacked), standardError: logged.all.standardError / rarelyMix),
            nil
        )
    }

    /// The squared `platform.getTimelineDaySpread`: day-to-day variance beyond Poisson noise
    /// (the same estimator the inversion applies to simulated logs), averaged over devices.
    package static func getTimelineDaySpreadSquared(_ devices: [LogAnalysis.DeviceMeasurement]) -> Double? {
        let squared = devices.compactMap { m in TimelineVisibility.spreadSquared(m.days.map(\.getTimelineSystem)) }
        return squared.isEmpty ? nil : Statistics.mean(squared)
    }

    /// `population.lowPowerDayShare`: the share of days in Low Power Mode over the devices whose
    /// logs say, with the standard error of the devices' own shares.
    package static func lowPowerDayShare(_ devices: [LogAnalysis.DeviceMeasurement]) -> Estimate? {
        let known = devices.filter(\.lowPowerKnown)
        guard !known.isEmpty else { return nil }
        let shares = known.map { Double($0.days.filter(\.lowPowerMode).count) / Double($0.days.count) }
        let days = known.flatMap(\.days)
        let share = Double(days.filter(\.lowPowerMode).count) / Double(days.count)
        return Estimate(value: share, standardError: standardError(shares))
    }

    /// Devices on which iOS launches the app's background refresh (a launch on some day). A
    /// device that submits requests but is never launched is one iOS does not launch for: the
    /// user force-quits the app or turned Background App Refresh off (`platform.backgroundRunsPerDay`
    /// is the rate of the others).
    static func backgroundDevices(_ devices: [LogAnalysis.DeviceMeasurement]) -> [LogAnalysis.DeviceMeasurement] {
        devices.filter { m in m.days.contains { $0.bgLaunches > 0 } }
    }

    /// `platform.backgroundRunsPerDay`: background launches per day outside Low Power Mode,
    /// among devices iOS launches background refresh on.
    package static func backgroundRunsPerDay(_ devices: [LogAnalysis.DeviceMeasurement]) -> Estimate? {
        let ordinary = backgroundDevices(devices).compactMap { m -> Double? in
            let days = m.days.filter { !$0.lowPowerMode }
            return days.isEmpty ? nil : Double(days.reduce(0) { $0 + $1.bgLaunches }) / Double(days.count)
        }
        guard !ordinary.isEmpty else { return nil }
        return Estimate(value: Statistics.mean(ordinary), standardError: standardError(ordinary))
    }

    /// Days outside Low Power Mode a device needs before no launch on them says iOS does not
    /// launch it (at one run a day, a week without one happens once in a thousand).
    package static let minimumDaysForUnlaunched = 7

    /// Among devices whose app opens, with enough days outside Low Power Mode, the share on
    /// which iOS never launched background refresh (force-quit apps, Background App Refresh
    /// off); nil when no device logged a launch (the app may not use it) or none qualifies.
    package static func unlaunchedShare(_ devices: [LogAnalysis.DeviceMeasurement]) -> Double? {
        guard !backgroundDevices(devices).isEmpty else { return nil }
        let opening = devices.filter { m in
            m.days.contains { $0.appOpens > 0 } && m.days.filter { !$0.lowPowerMode }.count >= minimumDaysForUnlaunched
        }
        guard !opening.isEmpty else { return nil }
        let unlaunched = opening.filter { m in !m.days.contains { $0.bgLaunches > 0 } }.count
        return Double(unlaunched) / Double(opening.count)
    }

    /// Launches logged before their hours are taken as `population.activity.background`.
    package static let minimumLaunchesForHours = 100

    /// `population.activity.background`: the logged launches by local hour, each hour at least
    /// a twentieth of the mean so that no hour is ruled out by a short capture; nil with fewer
    /// than `minimumLaunchesForHours` launches.
    package static func launchHours(_ devices: [LogAnalysis.DeviceMeasurement]) -> [Double]? {
        var counts = [Double](repeating: 0, count: 24)
        for m in devices { for h in 0..<24 { counts[h] += Double(m.launchHours[h]) } }
        let total = counts.reduce(0, +)
        guard total >= Double(minimumLaunchesForHours) else { return nil }
        let floor = total / 24 / 20
        return counts.map { Swift.max($0, floor) * 24 / total }
    }

    /// Low Power Mode days needed before their launch rate is taken as a measurement.
    package static let minimumLowPowerDays = 20

    /// `platform.backgroundLowPowerFactor`: launches per Low Power Mode day over `ordinaryRate`
    /// (launches per other day), capped at the field's bound; nil with too few such days.
    package static func backgroundLowPowerFactor(_ devices: [LogAnalysis.DeviceMeasurement], ordinaryRate: Double) -> Double? {
        let lowDays = backgroundDevices(devices).flatMap(\.days).filter(\.lowPowerMode)
        guard lowDays.count >= minimumLowPowerDays && ordinaryRate > 0 else { return nil }
        let lowRate = Double(lowDays.reduce(0) { $0 + $1.bgLaunches }) / Double(lowDays.count)
        return Swift.min(ScenarioValidator.Bounds.backgroundLowPowerFactor.upperBound, lowRate / ordinaryRate)
    }

    /// `population.appOpensPerDay` among devices whose users open the app, and
    /// `population.neverOpenShare`; nil when no device logged an app open.
    package static func appOpens(_ devices: [LogAnalysis.DeviceMeasurement]) -> (perDay: Estimate, neverOpenShare: Double)? {
        guard devices.contains(where: { m in m.days.contains { $0.appOpens > 0 } }) else { return nil }
        let perDevice = devices.map { m in Double(m.days.reduce(0) { $0 + $1.appOpens }) / Double(m.days.count) }
        let opening = perDevice.filter { $0 > 0 }
        return (
            Estimate(value: Statistics.mean(opening), standardError: standardError(opening)),
            Double(perDevice.count - opening.count) / Double(perDevice.count)
        )
    }
}
