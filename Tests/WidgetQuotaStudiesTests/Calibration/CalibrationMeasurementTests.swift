import Testing
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaStudies

/// Each calibrated field's measurement on a few constructed devices.
@Suite("Calibration measurements")
struct CalibrationMeasurementTests {
    typealias Measure = CalibrationMeasurement

    /// A device with one day per entry of `days` (each day's changes applied to an empty day).
    static func device(
        instances: Int = 1, smartStack: Bool? = nil, lowPowerKnown: Bool = false,
        days: [(inout DeviceDay) -> Void]
    ) -> LogAnalysis.DeviceMeasurement {
        let list = days.map { change -> DeviceDay in
            var day = DeviceDay()
            change(&day)
            return day
        }
        return .init(
            device: "d", days: list, smartStack: smartStack, instances: instances, originKnown: false,
            lowPowerKnown: lowPowerKnown, firstDay: 0, dayNumbers: Array(0..<list.count))
    }

    /// A device whose widget got `calls` system getTimelines on each of its days.
    static func timeline(_ calls: [Int], instances: Int = 1, smartStack: Bool? = nil) -> LogAnalysis.DeviceMeasurement {
        device(instances: instances, smartStack: smartStack, days: calls.map { n in { $0.getTimelineSystem = n } })
    }

    @Test("widget instances: the share of devices with several, and their mean count, capped at the validator's bound")
    func widgetInstances() {
        let devices = [Self.timeline([1], instances: 1), Self.timeline([1], instances: 3), Self.timeline([1], instances: 40)]
        let m = Measure.widgetInstances(devices)
        #expect(abs(m.multiWidgetShare - 2.0 / 3) < 1e-12)
        #expect(m.instancesWhenMulti == ScenarioValidator.Bounds.instancesWhenMulti.upperBound)
        #expect(Measure.widgetInstances([Self.timeline([1])]).instancesWhenMulti == nil)
    }

    @Test("Smart Stack share: over the devices whose logs say, with its binomial standard error")
    func smartStackShare() {
        let devices = [
            Self.timeline([1], smartStack: true), Self.timeline([1], smartStack: false),
            Self.timeline([1], smartStack: false), Self.timeline([1], smartStack: false), Self.timeline([1]),
        ]
        let share = Measure.smartStackShare(devices)
        #expect(share?.value == 0.25)
        #expect(abs((share?.standardError ?? 0) - (0.25 * 0.75 / 4).squareRoot()) < 1e-12)
        #expect(Measure.smartStackShare([Self.timeline([1])]) == nil)
    }

    @Test("logged getTimeline: per instance-day inside and outside Smart Stacks when every device says")
    func loggedTimelines() {
        let devices = [
            Self.timeline([60, 60], smartStack: true), Self.timeline([40, 40], instances: 2, smartStack: false),
            Self.timeline([20, 20], smartStack: false),
        ]
        let logged = Measure.loggedTimelines(devices)
        #expect(logged.split && logged.inside?.value == 60 && logged.outside?.value == 20)
        #expect(logged.inside?.standardError == 0 && logged.outside?.standardError == 0)
        #expect(abs(logged.all.value - 100.0 / 3) < 1e-9)
        // One device that does not say: no split.
        let unsplit = Measure.loggedTimelines(devices + [Self.timeline([30])])
        #expect(!unsplit.split && unsplit.inside == nil)
    }

    @Test("reloads as shown: outside Smart Stacks over the rarely-viewed mix, the stack's as the difference, or the stack's mix taken out")
    func reloadsAsShown() {
        var population = Population()
        population.rarelyViewedShare = 0.5
        var platform = Platform()
        platform.rarelyViewedReloadFactor = 0.5  // mix 0.75
        let split = Measure.reloadsAsShown(
            Measure.loggedTimelines([
                Self.timeline([30], smartStack: false), Self.timeline([15], smartStack: false), Self.timeline([45], smartStack: true),
            ]),
            population: population, platform: platform)
        #expect(split.map { abs($0.system.value - 30) < 1e-9 } == true)
        #expect(split?.smartStack.map { abs($0.value - 30) < 1e-9 } == true)
        population.smartStackShare = .fixed(0.5)
        population.smartStackReloadsPerDay = .fixed(20)  // 10 per instance-day over the mix
        let mixed = Measure.reloadsAsShown(Measure.loggedTimelines([Self.timeline([30])]), population: population, platform: platform)
        #expect(mixed.map { abs($0.system.value - 30) < 1e-9 && $0.system.standardError == 0 && $0.smartStack == nil } == true)
    }

    @Test("day-to-day spread: beyond Poisson noise, averaged over devices; none from one-day devices")
    func getTimelineDaySpreadSquared() {
        let steady = Measure.getTimelineDaySpreadSquared([Self.timeline([30, 30, 30, 30])])
        let varied = Measure.getTimelineDaySpreadSquared([Self.timeline([10, 50, 10, 50])])
        #expect(steady != nil && varied != nil)
        #expect((varied ?? 0) > (steady ?? 0))
        #expect(Measure.getTimelineDaySpreadSquared([Self.timeline([30])]) == nil)
    }

    @Test("Low Power day share: over the days of devices whose logs say")
    func lowPowerDayShare() {
        let a = Self.device(lowPowerKnown: true, days: [{ $0.lowPowerMode = true }, { _ in }, { _ in }, { _ in }])
        let b = Self.device(lowPowerKnown: true, days: [{ $0.lowPowerMode = true }, { _ in }, { _ in }, { _ in }])
        let unknown = Self.device(days: [{ $0.lowPowerMode = true }])
        let share = Measure.lowPowerDayShare([a, b, unknown])
        #expect(share == .init(value: 0.25, standardError: 0))
        #expect(Measure.lowPowerDayShare([unknown]) == nil)
    }

    @Test("background runs: launches per ordinary day among devices that use background refresh")
    func backgroundRunsPerDay() {
        let user = Self.device(days: [
            { $0.bgLaunches = 4 }, { $0.bgLaunches = 2 },
            {
                $0.bgLaunches = 9
                $0.lowPowerMode = true
            },
        ])
        let other = Self.device(days: [{ _ in }, { _ in }])
        #expect(Measure.backgroundRunsPerDay([user, other]) == .init(value: 3, standardError: 0))
        #expect(Measure.backgroundRunsPerDay([other]) == nil)
    }

    @Test("background Low Power factor: launches per Low Power day over the ordinary rate, only with enough such days")
    func backgroundLowPowerFactor() {
        let lowDays: [(inout DeviceDay) -> Void] = Array(
            repeating: {
                $0.bgLaunches = 1
                $0.lowPowerMode = true
            },
            count: Measure.minimumLowPowerDays)
        let device = Self.device(days: lowDays + [{ $0.bgLaunches = 4 }])
        #expect(Measure.backgroundLowPowerFactor([device], ordinaryRate: 4) == 0.25)
        #expect(
            Measure.backgroundLowPowerFactor([device], ordinaryRate: 0.5) == ScenarioValidator.Bounds.backgroundLowPowerFactor.upperBound)
        let few = Self.device(days: Array(lowDays.dropFirst()) + [{ $0.bgLaunches = 4 }])
        #expect(Measure.backgroundLowPowerFactor([few], ordinaryRate: 4) == nil)
    }

    @Test("app opens: per day among devices that open the app, and the share that never does")
    func appOpens() {
        let opener = Self.device(days: [{ $0.appOpens = 3 }, { $0.appOpens = 1 }])
        let never = Self.device(days: [{ _ in }])
        let opens = Measure.appOpens([opener, never])
        #expect(opens?.perDay == .init(value: 2, standardError: 0))
        #expect(opens?.neverOpenShare == 0.5)
        #expect(Measure.appOpens([never]) == nil)
    }

    @Test("a measurement beyond the field's bounds is capped, with a note")
    func bounded() {
        let (inside, none) = ScenarioCalibrator.bounded("f", 5, standardError: 0, ScenarioValidator.Bounds.reloadsPerDay)
        #expect(none == nil)
        if case .fixed(let v) = inside { #expect(v == 5) } else { Issue.record("expected a fixed value") }
        let (capped, note) = ScenarioCalibrator.bounded("f", 20_000, standardError: 1, ScenarioValidator.Bounds.reloadsPerDay)
        #expect(note?.contains("capped at 10000") == true || note?.contains("capped at 10,000") == true)
        if case .normal(let mean, _, _, let hi) = capped {
            #expect(mean == ScenarioValidator.Bounds.reloadsPerDay.upperBound && hi == mean)
        } else {
            Issue.record("expected a normal distribution")
        }
    }
}
