import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaSupport

/// Turns a log measurement into a scenario that `simulate --scenario` accepts as is
/// (`analyze --emit-scenario`).
///
/// Measured values carry their sampling uncertainty as a normal distribution (standard error
/// across devices), so `simulate` reports it. Fields the logs cannot measure keep the base
/// scenario's values. Every measured field is listed in `calibration.fields`.
///
/// Logs show every getTimeline call that ran, whatever caused it: the design's reload policy and
/// the app's reload calls as well as WidgetKit's own reloads and Smart Stack rotation, less what
/// the reload budget dropped. Given the design the logged app runs, calibration inverts the
/// model (`TimelineVisibility`): the emitted `platform.systemReloadsPerDay` and
/// `population.smartStackReloadsPerDay` are the rates whose simulated logs under that design
/// show what the real ones showed. Without a design, every logged call is taken for WidgetKit's own.
package enum ScenarioCalibrator {
    /// Iterations of the inversion, and the relative gap to the logs that ends it.
    static let maxCorrectionIterations = 20
    static let correctionTolerance = 1e-3
    /// Users per simulation of the inversion: enough that a simulated rate's sampling
    /// error is a few tenths of a percent, at a fraction of a second per step.
    package static let defaultSimulatedUsers = 2_000

    /// The base scenario with every field the analysis measured replaced.
    /// - Parameters:
    ///   - design: the design the logged app runs, whose simulation the reload rates are fitted
    ///     to; nil takes every logged call for WidgetKit's own.
    ///   - simulatedUsers: users per simulation of the inversion (fewer: faster, noisier).
    package static func calibrate(
        _ a: LogAnalysis, base: Scenario, design: Design?,
        simulatedUsers: Int = defaultSimulatedUsers
    ) throws -> Scenario {
        var s = base
        var fields = [String]()
        let ms = a.measurements.filter { !$0.days.isEmpty }
        guard !ms.isEmpty else {
            throw WidgetQuotaError.malformedInput(
                file: "logs", line: nil, problem: "no device-days were measured; expected records with timestamps")
        }
        typealias Measure = CalibrationMeasurement
        typealias Bounds = ScenarioValidator.Bounds
        // A measurement outside what the model accepts (a reload loop logging 20,000 getTimelines
        // a day) is capped with a note, so the rest of the calibration still lands.
        var capped = [String: String]()  // by field: a field measured again keeps its last note
        func measured(_ field: String, _ value: Double, _ se: Double, _ bounds: ClosedRange<Double>) -> Distribution {
            let (distribution, note) = bounded(field, value, standardError: se, bounds)
            capped[field] = note
            return distribution
        }

        let instances = Measure.widgetInstances(ms)
        s.population.multiWidgetShare = .fixed(instances.multiWidgetShare)
        if let n = instances.instancesWhenMulti { s.population.instancesWhenMulti = n }
        fields += ["population.multiWidgetShare", "population.instancesWhenMulti"]

        if let share = Measure.smartStackShare(ms) {
            s.population.smartStackShare = measured("population.smartStackShare", share.value, share.standardError, Bounds.share)
            fields.append("population.smartStackShare")
        }
        let logged = Measure.loggedTimelines(ms)
        let asShown = Measure.reloadsAsShown(logged, population: s.population, platform: s.platform)
        if let asShown {
            s.platform.systemReloadsPerDay = measured(
                "platform.systemReloadsPerDay", asShown.system.value, asShown.system.standardError, Bounds.reloadsPerDay)
            fields.append("platform.systemReloadsPerDay")
            if let stack = asShown.smartStack {
                s.population.smartStackReloadsPerDay = measured(
                    "population.smartStackReloadsPerDay", stack.value, stack.standardError, Bounds.reloadsPerDay)
                fields.append("population.smartStackReloadsPerDay")
            }
        }

        let shownSpreadSquared = Measure.getTimelineDaySpreadSquared(ms)
        if let shownSpreadSquared {
            s.platform.getTimelineDaySpread = spread(squared: shownSpreadSquared)
            fields.append("platform.getTimelineDaySpread")
        }

        if let share = Measure.lowPowerDayShare(ms) {
            s.population.lowPowerDayShare = measured("population.lowPowerDayShare", share.value, share.standardError, Bounds.share)
            fields.append("population.lowPowerDayShare")
        }

        if let runs = Measure.backgroundRunsPerDay(ms) {
            s.platform.backgroundRunsPerDay = measured(
                "platform.backgroundRunsPerDay", runs.value, runs.standardError, Bounds.backgroundRunsPerDay)
            fields.append("platform.backgroundRunsPerDay")
            if let hours = Measure.launchHours(ms) {
                s.population.activity.background = hours.map { ($0 * 1_000).rounded() / 1_000 }
                fields.append("population.activity.background")
            }
            if let share = Measure.unlaunchedShare(ms) {
                // Force-quitting users and those with the switch off get no launches: the logs
                // bound the first share from above and give the second.
                let forceQuit = Swift.min(s.population.forceQuitShare, share)
                if forceQuit < s.population.forceQuitShare {
                    s.population.forceQuitShare = forceQuit
                    fields.append("population.forceQuitShare")
                }
                let off = forceQuit < 1 ? Swift.max(0, 1 - (1 - share) / (1 - forceQuit)) : 0
                s.population.backgroundRefreshOffShare = .fixed(off)
                fields.append("population.backgroundRefreshOffShare")
            }
            if let factor = Measure.backgroundLowPowerFactor(ms, ordinaryRate: runs.value) {
                s.platform.backgroundLowPowerFactor = factor
                fields.append("platform.backgroundLowPowerFactor")
            }
        }

        if let opens = Measure.appOpens(ms) {
            s.population.neverOpenShare = .fixed(opens.neverOpenShare)
            s.population.appOpensPerDay = measured(
                "population.appOpensPerDay", opens.perDay.value, opens.perDay.standardError, Bounds.appOpensPerDay)
            fields += ["population.appOpensPerDay", "population.neverOpenShare"]
        }

        let formats = Array(Set(a.files.map(\.format))).sorted().joined(separator: ", ")
        var calibration = Calibration(
            fields: fields,
            source: "widget-quota analyze: \(a.devices) devices, \(a.deviceDays) device-days, "
                + "\(a.files.count) file\(a.files.count == 1 ? "" : "s") (\(formats))")
        if let design, asShown != nil {
            // Last, so the simulation sees every other measured field (app opens, Smart Stack, instances).
            var visibility = TimelineVisibility(design: design, originKnownShare: Double(ms.filter(\.originKnown).count) / Double(ms.count))
            visibility.users = Swift.max(simulatedUsers, 1)
            // As many days per simulated device as the logs have: the spread estimate depends on it.
            let dayCounts = ms.map(\.days.count).sorted()
            visibility.days = Swift.min(Swift.max(dayCounts[dayCounts.count / 2], 3), 60)
            let target = Target(logged: logged, spreadSquared: shownSpreadSquared)
            switch inverted(target, scenario: s, visibility: visibility) {
            case .success(let fit):
                // The logs' sampling error, carried through the slope of shown against true rate.
                let rate = target.rate
                s.platform.systemReloadsPerDay = measured(
                    "platform.systemReloadsPerDay", fit.system, rate.standardError / fit.slope, Bounds.reloadsPerDay)
                if let stack = fit.smartStack, let inside = logged.inside {
                    s.population.smartStackReloadsPerDay = measured(
                        "population.smartStackReloadsPerDay", stack, inside.standardError, Bounds.reloadsPerDay)
                }
                if let squared = fit.spreadSquared {
                    s.platform.getTimelineDaySpread = spread(squared: squared)
                    if fit.spreadUnsettled {
                        calibration.notes.append(
                            "platform.getTimelineDaySpread does not reproduce the logs' day-to-day spread: it moves only "
                                + "WidgetKit's own calls, of which \(design.name)'s own reloads leave few")
                    }
                    if fit.spreadAtBound {
                        calibration.notes.append(
                            "platform.getTimelineDaySpread is 0: the logs vary less from day to day than "
                                + "\(design.name) shows with any spread")
                    }
                }
                if fit.systemAtBound, let lateness = fittedLateness(target, scenario: s, visibility: visibility) {
                    // Fewer calls than the policy asks for: WidgetKit honours it later, which the
                    // logs measure (the system's own reloads stay at 0).
                    s.platform.policyLatenessMinutes = .fixed(lateness)
                    calibration.fields.append("platform.policyLatenessMinutes")
                    calibration.notes.append(
                        "platform.policyLatenessMinutes is \(NumberText.fixed(lateness, digits: 1)): the logs show "
                            + "\(NumberText.fixed(rate.value, digits: 1)) getTimeline calls per instance-day, fewer than "
                            + "\(design.name)'s policy asks for (\(NumberText.fixed(fit.shownWithoutSystem, digits: 1))), "
                            + "so WidgetKit runs its reloads that much later on average; WidgetKit's own reloads are 0")
                } else if fit.systemAtBound {
                    calibration.notes.append(
                        "platform.systemReloadsPerDay is 0: the logs show \(NumberText.fixed(rate.value, digits: 1)) getTimeline calls "
                            + "per instance-day, fewer than \(design.name)'s own reloads make without any of WidgetKit's "
                            + "(\(NumberText.fixed(fit.shownWithoutSystem, digits: 1))); check that --design names the design the logged app runs"
                    )
                }
                calibration.design = design.name
                calibration.getTimelineLoggedShare = fit.countedShare
            case .failure(let failure):
                calibration.notes.append(
                    "getTimeline figures are as the logs show them, every call taken for WidgetKit's own: "
                        + failure.reason(design: design.name))
            }
        }
        calibration.notes += capped.keys.sorted().map { capped[$0]! }
        s.calibration = calibration
        try ScenarioValidator.validate(s)
        return s
    }

    /// The day-to-day spread (a coefficient of variation) of a squared estimate, which sampling
    /// can push below zero, within the field's bounds.
    static func spread(squared: Double) -> Double {
        Swift.min(ScenarioValidator.Bounds.spread.upperBound, Swift.max(0, squared).squareRoot())
    }

    /// A measurement as a distribution within `bounds`: fixed without a standard error, else a
    /// normal clamped to them; and a note when the value had to be capped.
    package static func bounded(
        _ field: String, _ value: Double, standardError se: Double,
        _ bounds: ClosedRange<Double>
    ) -> (Distribution, note: String?) {
        let v = Swift.min(Swift.max(value, bounds.lowerBound), bounds.upperBound)
        let note =
            v == value
            ? nil
            : "\(field) measured \(NumberText.plain(value, maxFractionDigits: 3)), capped at "
                + "\(NumberText.plain(v)), \(v == bounds.upperBound ? "the most" : "the least") the model accepts"
        guard se > 0 else { return (.fixed(v), note) }
        return (.normal(mean: v, sd: se, min: bounds.lowerBound, max: bounds.upperBound), note)
    }

    /// What the logs showed: getTimeline calls per instance-day (outside Smart Stacks and inside,
    /// or over every device) and the squared day-to-day spread when it was measured.
    struct Target {
        var logged: CalibrationMeasurement.LoggedTimelines
        var spreadSquared: Double?
        /// The rate the system's reloads are fitted to: outside stacks when the logs split them.
        var rate: CalibrationMeasurement.Estimate { logged.outside ?? logged.all }
    }

    /// The rates whose simulated logs show what the real ones showed.
    struct Fit {
        var system: Double
        var smartStack: Double?
        var spreadSquared: Double?
        /// True when the logs vary less between days than any spread makes the design show.
        var spreadAtBound = false
        /// True when the search stopped with the spread still off the logs'.
        var spreadUnsettled = false
        /// True when the design's own reloads alone show more calls than the logs.
        var systemAtBound = false
        /// What the logs would show with no system reloads (when `systemAtBound`).
        var shownWithoutSystem = 0.0
        /// Calls the simulated logs count per getTimeline call that ran.
        var countedShare: Double?
        /// How fast the shown rate moves with the system's rate there.
        var slope: Double
    }

    /// Why the inversion gave up.
    enum CorrectionFailure: Error, Equatable {
        /// No simulated device was where the logs measured (for example, no user was stacked).
        case nothingShown
        /// The search did not settle: typically every device spends its budget, so the logs
        /// bound the rate from below without fixing it.
        case unsettled

        func reason(design: String) -> String {
            switch self {
            case .nothingShown:
                return "the simulated \(design) users showed nothing to compare with"
            case .unsettled:
                return "under \(design), no system rate reproduces the logs (when most devices spend their reload budget, "
                    + "the logs only say the rate is at least that high)"
            }
        }
    }

    /// The mean lateness (minutes) of policy reloads whose simulated logs show the logged rate,
    /// WidgetKit's own reloads at 0; nil when even a day's lateness shows more calls.
    ///
    /// More lateness shows fewer calls, so a bisection finds it; every step simulates with the
    /// same random streams.
    static func fittedLateness(_ target: Target, scenario: Scenario, visibility: TimelineVisibility) -> Double? {
        var s = scenario
        s.platform.systemReloadsPerDay = .fixed(0)
        let goal = target.rate.value
        func showing(_ minutes: Double) -> Double? {
            s.platform.policyLatenessMinutes = .fixed(minutes)
            let shown = visibility.shown(s)
            return target.logged.split ? shown.outside : shown.all
        }
        var low = ScenarioValidator.Bounds.policyLatenessMinutes.lowerBound
        var high = ScenarioValidator.Bounds.policyLatenessMinutes.upperBound
        guard let most = showing(high), most <= goal else { return nil }
        for _ in 0..<maxCorrectionIterations * 2 {
            let middle = (low + high) / 2
            guard let shown = showing(middle) else { return nil }
            if abs(shown - goal) <= correctionTolerance * Swift.max(goal, 1) { return middle }
            if shown > goal { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// Gap between the shown and simulated squared day spread that counts as settled.
    static let spreadTolerance = 0.002

    /// Solves for WidgetKit's own reloads, Smart Stack rotation's when the logs split stacked
    /// devices from the others, and the day-to-day spread when it was measured.
    ///
    /// Each rate is moved until the logs simulated with it show the real figure: a first step
    /// by the gap (a system reload adds at most one logged call, fewer where it replaces a
    /// policy reload or meets a spent budget), then secant steps. Every step simulates with the
    /// same random streams, so the steps are not thrown around by noise.
    static func inverted(_ target: Target, scenario: Scenario, visibility: TimelineVisibility) -> Result<Fit, CorrectionFailure> {
        var s = scenario
        let bounds = ScenarioValidator.Bounds.reloadsPerDay
        let goal = target.rate.value
        var system = SecantSearch(x: s.platform.systemReloadsPerDay.central, target: goal, range: bounds)
        var stack = target.logged.inside.map {
            SecantSearch(x: s.population.smartStackReloadsPerDay.central, target: $0.value, range: bounds)
        }
        let largestSquared = ScenarioValidator.Bounds.spread.upperBound * ScenarioValidator.Bounds.spread.upperBound
        var squared = target.spreadSquared.map {
            SecantSearch(x: Swift.max($0, 0), target: $0, range: 0...largestSquared)
        }
        func rate(_ shown: TimelineVisibility.Shown) -> Double? { target.logged.split ? shown.outside : shown.all }
        for iteration in 0..<maxCorrectionIterations {
            s.platform.systemReloadsPerDay = .fixed(system.x)
            if let stack { s.population.smartStackReloadsPerDay = .fixed(stack.x) }
            if let squared { s.platform.getTimelineDaySpread = spread(squared: squared.x) }
            let shown = visibility.shown(s)
            guard let showing = rate(shown) else { return .failure(.nothingShown) }
            var tried = Fit(
                system: system.x, smartStack: stack?.x, spreadSquared: squared?.x, countedShare: shown.countedShare, slope: 1)
            // At the lower bound when even no system reloads show too many calls.
            tried.systemAtBound = system.x == bounds.lowerBound && showing > goal
            tried.shownWithoutSystem = showing
            var settled = abs(showing - goal) <= correctionTolerance * Swift.max(goal, 1)
            if let q = stack {
                guard let inside = shown.inside else { return .failure(.nothingShown) }
                let atBound = q.x == bounds.lowerBound && inside > q.target
                settled = settled && (abs(inside - q.target) <= correctionTolerance * Swift.max(q.target, 1) || atBound)
                stack!.step(showing: inside)
            }
            if let q = squared {
                guard let spreadShowing = shown.daySpreadSquared else { return .failure(.nothingShown) }
                // Settled on the gap (in squared units: 0.002 is 0.003 of spread near 0.35), or at
                // the lower bound when even no spread shows too much.
                let close = abs(spreadShowing - q.target) <= spreadTolerance
                tried.spreadAtBound = q.x == 0 && spreadShowing > q.target
                // The spread moves only WidgetKit's own calls: when the design's own reloads leave
                // few of those, it barely moves what the logs show, and the rates must not wait
                // for it past half the iterations.
                tried.spreadUnsettled = !close && !tried.spreadAtBound
                settled = settled && (close || tried.spreadAtBound || iteration >= maxCorrectionIterations / 2)
                squared!.step(showing: spreadShowing)
            }
            // When the design's own reloads alone show more than the logs, nothing else the
            // search could move would reconcile them: stop there, and say so.
            if settled || tried.systemAtBound {
                // The slope of shown against the system's rate, for the emitted uncertainty:
                // one more simulation a step higher, the other figures held.
                let step = Swift.max(system.x * 0.05, 0.5)
                s.platform.systemReloadsPerDay = .fixed(system.x + step)
                if let higher = rate(visibility.shown(s)) {
                    let slope = (higher - showing) / step
                    if SecantSearch.slopeRange.contains(slope) { tried.slope = slope }
                }
                return .success(tried)
            }
            system.step(showing: showing)
            guard system.x.isFinite else { return .failure(.unsettled) }
        }
        return .failure(.unsettled)
    }
}

/// One figure of the inversion: the value being tried, and the secant through the last two tries
/// of what the logs would show against it. The first step adds the gap (a reload rate moves the
/// logged calls about one for one); later steps follow the secant.
struct SecantSearch {
    var x: Double
    let target: Double
    let range: ClosedRange<Double>
    private var previous: (x: Double, showing: Double)?

    /// Slopes outside this range are taken as noise.
    static let slopeRange = 0.02...50.0

    init(x: Double, target: Double, range: ClosedRange<Double>) {
        self.x = x
        self.target = target
        self.range = range
    }

    /// Moves `x` given what the logs would show at it.
    mutating func step(showing: Double) {
        var next = x + (target - showing)
        if let p = previous, p.x != x {
            let secant = (showing - p.showing) / (x - p.x)
            if Self.slopeRange.contains(secant) { next = x + (target - showing) / secant }
        }
        previous = (x, showing)
        x = Swift.min(Swift.max(next, range.lowerBound), range.upperBound)
    }
}
