import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaSupport

/// Turns a log measurement into a scenario that `simulate --scenario` accepts as is
/// (`analyze --emit-scenario`).
///
/// The engine multiplies a device's getTimeline rate by `smartStackUplift` for Smart Stack users,
/// by `rarelyViewedReloadFactor` for rarely viewed ones and by the number of widget instances, so
/// the measured rate is backed out accordingly: per instance, outside Smart Stacks, divided by the
/// base scenario's rarely-viewed mix. Measured values carry their sampling uncertainty as a normal
/// distribution (standard error across devices), so `simulate` reports it. Fields the logs cannot
/// measure keep the base scenario's values. Every measured field is listed in `calibration.fields`.
///
/// Logs show the getTimeline calls that ran, not the ones the system asked for: the reload budget
/// drops some, and Apple logs count the design's own reloads as the system's. Given the design
/// the logged app runs, the rate is then corrected by simulation (`TimelineVisibility`): the
/// emitted rate is the one whose simulated logs show what the real ones showed.
package enum ScenarioCalibrator {
    /// Iterations of the budget correction, and the relative gap to the logs that ends it.
    static let maxCorrectionIterations = 20
    static let correctionTolerance = 1e-3
    /// Users per simulation of the budget correction: enough that a simulated share's sampling
    /// error is a few tenths of a percent, at a fraction of a second per step.
    package static let defaultSimulatedUsers = 2_000

    /// The base scenario with every field the analysis measured replaced.
    /// - Parameters:
    ///   - design: the design the logged app runs, to correct the getTimeline rate for what its
    ///     logs cannot show; nil keeps the rate as the logs show it.
    ///   - simulatedUsers: users per simulation of the correction (fewer: faster, noisier).
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
        s.population.multiWidgetShare = instances.multiWidgetShare
        if let n = instances.instancesWhenMulti { s.population.instancesWhenMulti = n }
        fields += ["population.multiWidgetShare", "population.instancesWhenMulti"]

        if let share = Measure.smartStackShare(ms) {
            s.population.smartStackShare = measured("population.smartStackShare", share.value, share.standardError, Bounds.share)
            fields.append("population.smartStackShare")
        }
        let shownUplift = Measure.smartStackUplift(ms)
        if let shownUplift {
            s.population.smartStackUplift = measured(
                "population.smartStackUplift", shownUplift.uplift,
                shownUplift.uplift * shownUplift.relativeSE, measuredUpliftBounds)
            fields.append("population.smartStackUplift")
        }

        // With the Smart Stack share and uplift just measured, when the rate has to back them out.
        let getTimeline = Measure.getTimelinePerDay(ms, population: s.population, platform: s.platform)
        if let rate = getTimeline?.rate {
            s.platform.getTimelinePerDay = measured("platform.getTimelinePerDay", rate.value, rate.standardError, Bounds.getTimelinePerDay)
            fields.append("platform.getTimelinePerDay")
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
        if let design, let getTimeline, getTimeline.rate.value > 0 {
            // Last, so the simulation sees every other measured field (app opens, Smart Stack, instances).
            var visibility = TimelineVisibility(design: design, originKnownShare: Double(ms.filter(\.originKnown).count) / Double(ms.count))
            visibility.users = Swift.max(simulatedUsers, 1)
            // As many days per simulated device as the logs have: the spread estimate depends on it.
            let dayCounts = ms.map(\.days.count).sorted()
            visibility.days = Swift.min(Swift.max(dayCounts[dayCounts.count / 2], 3), 60)
            let mixedShare = !getTimeline.outsideStacks && shownUplift != nil ? s.population.smartStackShare.central : nil
            let shown = Shown(
                rate: getTimeline.rate.value, outsideStacks: getTimeline.outsideStacks, uplift: shownUplift?.uplift,
                spreadSquared: shownSpreadSquared, mixedStackShare: mixedShare)
            switch corrected(shown, scenario: s, visibility: visibility) {
            case .success(let fit):
                // The logs' sampling error, carried through the slope of shown against true rate:
                // where the design's own reloads fill in for the system's, the logs say little
                // about the system's rate, and the emitted uncertainty says so.
                s.platform.getTimelinePerDay = measured(
                    "platform.getTimelinePerDay", fit.rate, getTimeline.rate.standardError / fit.slope,
                    Bounds.getTimelinePerDay)
                if let uplift = fit.uplift, let relative = shownUplift?.relativeSE {
                    s.population.smartStackUplift = measured("population.smartStackUplift", uplift, uplift * relative, measuredUpliftBounds)
                }
                if let squared = fit.spreadSquared {
                    s.platform.getTimelineDaySpread = spread(squared: squared)
                    if fit.spreadAtBound {
                        calibration.notes.append(
                            "platform.getTimelineDaySpread is 0: the logs vary less from day to day than "
                                + "\(design.name) shows with any spread")
                    }
                }
                calibration.design = design.name
                calibration.getTimelineLoggedShare = fit.share
            case .failure(let failure):
                calibration.notes.append(
                    "getTimeline figures are as the logs show them, not corrected for what they cannot show: "
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

    /// Bounds of a measured Smart Stack uplift: the validator's, with a floor of 0.01 (stacked
    /// widgets refreshed a hundredth as often as others), below which a ratio of two rates
    /// says more about empty logs than about Smart Stacks.
    static let measuredUpliftBounds = 0.01...ScenarioValidator.Bounds.positiveFactor.upperBound

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

    /// What the logs showed: getTimeline per instance-day (outside Smart Stacks, or over all
    /// devices), the Smart Stack uplift and the squared day-to-day spread when they were measured.
    struct Shown {
        var rate: Double
        var outsideStacks: Bool
        var uplift: Double?
        var spreadSquared: Double?
        /// When the rate is over all devices but the uplift was measured (some logs name the
        /// stack, some do not): the Smart Stack share whose mix, with the shown uplift, the rate
        /// was divided by.
        var mixedStackShare: Double?
    }

    /// The system's figures whose simulated logs show what the real ones showed.
    struct Fit {
        var rate: Double
        var uplift: Double?
        var spreadSquared: Double?
        /// True when the logs vary less between days than any spread makes the design show.
        var spreadAtBound = false
        /// Calls the logs show per call offered, at that rate.
        var share: Double
        /// How fast the shown rate moves with the true one there.
        var slope: Double
    }

    /// Why the correction gave up.
    enum CorrectionFailure: Error, Equatable {
        /// The simulated users were offered no calls (or, for the uplift, no user was stacked).
        case nothingOffered
        /// The simulated logs of the design show implausibly many or few calls per call offered.
        case implausible(share: Double)
        /// The search did not settle: typically every device spends its budget, so the logs
        /// bound the rate from below without fixing it.
        case unsettled

        func reason(design: String) -> String {
            switch self {
            case .nothingOffered:
                return "the simulated \(design) users were offered no calls to compare with"
            case .implausible(let share):
                return "under \(design), the simulated logs show \(String(format: "%.2f", share)) calls per call the system "
                    + "offers, far from what the logs show; check that --design names the design the logged app runs"
            case .unsettled:
                return "under \(design), no system rate reproduces the logs (when most devices spend their reload budget, "
                    + "the logs only say the rate is at least that high)"
            }
        }
    }

    /// Gap between the shown and simulated squared day spread that counts as settled.
    static let spreadTolerance = 0.002

    /// Calls shown per call offered outside this range mean the design cannot be the one logged.
    static let plausibleShares = 0.25...4.0

    /// Solves for the system's getTimeline rate, and for the Smart Stack uplift and day-to-day
    /// spread when they were measured (the budget hides more of a stacked device's calls, and
    /// cuts off busy days, which hides spread).
    ///
    /// Each figure is moved until the logs simulated with it show the real figure: a first
    /// proportional step (additive for the spread), then secant steps, because what the logs
    /// show can move slowly with the truth (with fewer system calls a design's reload policy
    /// fires more often, and Apple logs count those reloads too). Every step simulates with the
    /// same random streams, so the steps are not thrown around by noise.
    static func corrected(_ shown: Shown, scenario: Scenario, visibility: TimelineVisibility) -> Result<Fit, CorrectionFailure> {
        var s = scenario
        var rate = SecantSearch(x: shown.rate, target: shown.rate, range: ScenarioValidator.Bounds.getTimelinePerDay)
        var uplift = shown.uplift.map { SecantSearch(x: $0, target: $0, range: measuredUpliftBounds) }
        let largestSquared = ScenarioValidator.Bounds.spread.upperBound * ScenarioValidator.Bounds.spread.upperBound
        var squared = shown.spreadSquared.map { SecantSearch(x: Swift.max($0, 0), target: $0, range: 0...largestSquared, additive: true) }
        /// What the logs would show at this step, as a shown rate: the calls that ran, over the
        /// same Smart Stack mix the real rate was divided by.
        func logged(_ rate: Double, _ shares: TimelineVisibility.Shares, uplift: Double?) -> Double? {
            guard let share = shown.outsideStacks ? shares.outside : shares.all else { return nil }
            var value = rate * share
            if let p = shown.mixedStackShare, let u = uplift, let u0 = shown.uplift {
                value *= (1 - p + p * u) / (1 - p + p * u0)
            }
            return value
        }
        for _ in 0..<maxCorrectionIterations {
            s.platform.getTimelinePerDay = .fixed(rate.x)
            if let uplift { s.population.smartStackUplift = .fixed(uplift.x) }
            if let squared { s.platform.getTimelineDaySpread = spread(squared: squared.x) }
            let shares = visibility.shownPerOffered(s)
            guard let share = shown.outsideStacks ? shares.outside : shares.all, share > 0,
                let showing = logged(rate.x, shares, uplift: uplift?.x)
            else { return .failure(.nothingOffered) }
            guard plausibleShares.contains(share) else { return .failure(.implausible(share: share)) }
            var tried = Fit(rate: rate.x, uplift: uplift?.x, spreadSquared: squared?.x, share: share, slope: Swift.min(share, 1))
            var settled = abs(showing - shown.rate) <= correctionTolerance * shown.rate
            if let u = uplift {
                guard let inside = shares.inside, let outside = shares.outside, outside > 0 else { return .failure(.nothingOffered) }
                let upliftShowing = u.x * inside / outside
                settled = settled && abs(upliftShowing - u.target) <= correctionTolerance * u.target
                uplift!.step(showing: upliftShowing)
            }
            if let q = squared {
                guard let spreadShowing = shares.daySpreadSquared else { return .failure(.nothingOffered) }
                // Settled on the gap (in squared units: 0.002 is 0.003 of spread near 0.35), or at
                // the lower bound when even no spread shows too much.
                let close = abs(spreadShowing - q.target) <= spreadTolerance
                tried.spreadAtBound = q.x == 0 && spreadShowing > q.target
                settled = settled && (close || tried.spreadAtBound)
                squared!.step(showing: spreadShowing)
            }
            if settled {
                // The slope of shown against true rate, for the emitted uncertainty: one more
                // simulation 5% higher, the other figures held.
                s.platform.getTimelinePerDay = .fixed(rate.x * 1.05)
                if let higher = logged(rate.x * 1.05, visibility.shownPerOffered(s), uplift: tried.uplift) {
                    let slope = (higher - showing) / (rate.x * 0.05)
                    if SecantSearch.slopeRange.contains(slope) { tried.slope = slope }
                }
                return .success(tried)
            }
            rate.step(showing: showing)
            guard rate.x.isFinite else { return .failure(.unsettled) }
        }
        return .failure(.unsettled)
    }
}

/// One figure of the budget correction: the value being tried, and the secant through the last
/// two tries of what the logs would show against it.
struct SecantSearch {
    var x: Double
    let target: Double
    let range: ClosedRange<Double>
    /// The first step adds the gap (true) or scales by it (false).
    var additive = false
    private var previous: (x: Double, showing: Double)?

    /// Slopes outside this range are taken as noise, and at most this factor per step.
    static let slopeRange = 0.02...50.0
    static let maxFactor = 2.0

    init(x: Double, target: Double, range: ClosedRange<Double>, additive: Bool = false) {
        self.x = x
        self.target = target
        self.range = range
        self.additive = additive
    }

    /// Moves `x` given what the logs would show at it.
    mutating func step(showing: Double) {
        var next = additive ? x + (target - showing) : (showing > 0 ? x * target / showing : x)
        if let p = previous, p.x != x {
            let secant = (showing - p.showing) / (x - p.x)
            if Self.slopeRange.contains(secant) { next = x + (target - showing) / secant }
        }
        if !additive { next = Swift.min(Swift.max(next, x / Self.maxFactor), x * Self.maxFactor) }
        previous = (x, showing)
        x = Swift.min(Swift.max(next, range.lowerBound), range.upperBound)
    }
}
