import Foundation

/// Turns a log measurement into a scenario that `simulate --scenario` accepts as is
/// (`analyze --emit-scenario`).
///
/// The engine multiplies a device's getTimeline rate by `smartStackUplift` for Smart Stack users,
/// by `rarelyViewedReloadFactor` for rarely viewed ones and by the number of widget instances, so
/// the measured rate is backed out accordingly: per instance, outside Smart Stacks, divided by the
/// base scenario's rarely-viewed mix. Measured values carry their sampling uncertainty as a normal
/// distribution (standard error across devices), so `simulate` reports it. Fields the logs cannot
/// measure keep the base scenario's values. Every measured field is listed in `calibration.fields`.
public enum ScenarioCalibrator {
    /// The base scenario with every field the analysis measured replaced.
    public static func calibrate(_ a: LogAnalysis, base: Scenario) throws -> Scenario {
        var s = base
        var fields = [String]()
        let ms = a.measurements.filter { !$0.days.isEmpty }
        guard !ms.isEmpty else {
            throw WidgetQuotaError.malformedInput(file: "logs", line: nil, problem: "no device-days were measured; expected records with timestamps")
        }
        func mean(_ v: [Double]) -> Double { Statistics.mean(v) }
        func standardError(_ v: [Double]) -> Double {
            guard v.count > 1 else { return 0 }
            let m = mean(v)
            let variance = v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)
            return (variance / Double(v.count)).squareRoot()
        }
        func measured(_ value: Double, _ se: Double, min lo: Double, max hi: Double?) -> Distribution {
            let v = Swift.max(value, lo)
            guard se > 0 else { return .fixed(v) }
            return .normal(mean: v, sd: se, min: lo, max: hi)
        }

        // Widget instances per device.
        let multi = ms.filter { $0.instances > 1 }
        s.population.multiWidgetShare = Double(multi.count) / Double(ms.count)
        if !multi.isEmpty {
            s.population.instancesWhenMulti = Swift.min(16, Int(mean(multi.map { Double($0.instances) }).rounded()))
        }
        fields += ["population.multiWidgetShare", "population.instancesWhenMulti"]

        // Smart Stack share and uplift.
        let stackKnown = ms.filter { $0.smartStack != nil }
        let inStack = stackKnown.filter { $0.smartStack == true }.map(LogAnalyzer.instanceRate)
        let outside = stackKnown.filter { $0.smartStack == false }.map(LogAnalyzer.instanceRate)
        if !stackKnown.isEmpty {
            let share = Double(inStack.count) / Double(stackKnown.count)
            let se = (share * (1 - share) / Double(stackKnown.count)).squareRoot()
            s.population.smartStackShare = measured(share, se, min: 0, max: 1)
            fields.append("population.smartStackShare")
        }
        if !inStack.isEmpty && !outside.isEmpty && mean(outside) > 0 {
            let a = mean(inStack), b = mean(outside)
            let uplift = a / b
            let relative = (pow(standardError(inStack) / a, 2) + pow(standardError(outside) / b, 2)).squareRoot()
            s.population.smartStackUplift = measured(uplift, uplift * relative, min: 0.01, max: 1_000)
            fields.append("population.smartStackUplift")
        }

        // getTimeline per instance per day outside Smart Stacks, before the rarely-viewed mix.
        let base = s.population
        let rarely = base.rarelyViewedShare, factor = s.platform.rarelyViewedReloadFactor
        let rarelyMix = 1 - rarely + rarely * factor
        var rates = outside
        var stackMix = 1.0
        if stackKnown.count < ms.count || outside.isEmpty {
            // Smart Stack unknown: the measured rate mixes both; back out the scenario's share and uplift.
            rates = ms.map(LogAnalyzer.instanceRate)
            let share = s.population.smartStackShare.central, uplift = s.population.smartStackUplift.central
            stackMix = 1 - share + share * uplift
        }
        if rarelyMix > 0 && stackMix > 0 {
            let scale = 1 / (rarelyMix * stackMix)
            s.platform.getTimelinePerDay = measured(mean(rates) * scale, standardError(rates) * scale, min: 0, max: 10_000)
            fields.append("platform.getTimelinePerDay")
        }

        // Day-to-day spread: variance beyond Poisson noise, as a coefficient of variation.
        var cv2 = [Double]()
        for m in ms where m.days.count >= 3 {
            let counts = m.days.map { Double($0.getTimelineSystem) }
            let mu = mean(counts)
            guard mu > 0 else { continue }
            let variance = counts.reduce(0) { $0 + ($1 - mu) * ($1 - mu) } / Double(counts.count - 1)
            cv2.append((variance - mu) / (mu * mu))
        }
        if !cv2.isEmpty {
            s.platform.getTimelineDaySpread = Swift.min(10, Swift.max(0, mean(cv2)).squareRoot())
            fields.append("platform.getTimelineDaySpread")
        }

        // Low Power Mode days.
        let lowPowerKnown = ms.filter(\.lowPowerKnown)
        if !lowPowerKnown.isEmpty {
            let shares = lowPowerKnown.map { Double($0.days.filter(\.lowPowerMode).count) / Double($0.days.count) }
            let days = lowPowerKnown.flatMap(\.days)
            let share = Double(days.filter(\.lowPowerMode).count) / Double(days.count)
            s.population.lowPowerDayShare = measured(share, standardError(shares), min: 0, max: 1)
            fields.append("population.lowPowerDayShare")
        }

        // Background refresh: launches per day on ordinary days, among devices that use it.
        let background = ms.filter { m in m.days.contains { $0.bgLaunches > 0 || $0.bgSubmits > 0 } }
        if !background.isEmpty {
            let ordinary = background.compactMap { m -> Double? in
                let days = m.days.filter { !$0.lowPowerMode }
                return days.isEmpty ? nil : Double(days.reduce(0) { $0 + $1.bgLaunches }) / Double(days.count)
            }
            if !ordinary.isEmpty {
                s.platform.backgroundRunsPerDay = measured(mean(ordinary), standardError(ordinary), min: 0, max: 96)
                fields.append("platform.backgroundRunsPerDay")
                let lowDays = background.flatMap(\.days).filter(\.lowPowerMode)
                let lowRate = lowDays.isEmpty ? 0 : Double(lowDays.reduce(0) { $0 + $1.bgLaunches }) / Double(lowDays.count)
                if lowDays.count >= 20 && mean(ordinary) > 0 {
                    s.platform.backgroundLowPowerFactor = Swift.min(1, lowRate / mean(ordinary))
                    fields.append("platform.backgroundLowPowerFactor")
                }
            }
        }

        // App opens, among devices whose users open the app at all.
        if ms.contains(where: { m in m.days.contains { $0.appOpens > 0 } }) {
            let perDevice = ms.map { m in Double(m.days.reduce(0) { $0 + $1.appOpens }) / Double(m.days.count) }
            let opening = perDevice.filter { $0 > 0 }
            s.population.neverOpenShare = .fixed(Double(perDevice.count - opening.count) / Double(perDevice.count))
            s.population.appOpensPerDay = measured(mean(opening), standardError(opening), min: 0, max: 500)
            fields += ["population.appOpensPerDay", "population.neverOpenShare"]
        }

        let formats = Array(Set(a.files.map(\.format))).sorted().joined(separator: ", ")
        s.calibration = Calibration(fields: fields, source: "widget-quota analyze: \(a.devices) devices, \(a.deviceDays) device-days, "
                                    + "\(a.files.count) file\(a.files.count == 1 ? "" : "s") (\(formats))")
        try ScenarioValidator.validate(s)
        return s
    }
}
