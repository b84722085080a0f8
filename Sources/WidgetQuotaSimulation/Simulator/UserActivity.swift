import Foundation
import WidgetQuotaSupport

/// What one simulated user does whatever the design: who they are (`UserTraits`), how busy each
/// local day is, which days are spent in Low Power Mode, and the widget's own activity (system
/// getTimeline calls and glances, see `WidgetStream`).
///
/// It draws only from random streams keyed by (seed, run, user), never by design, so it is the
/// same under every design of a run; the engine generates it once per user and replays it under
/// each design, which saves most of a user's set-up cost. The memory lives in `ActivityBuffers`
/// and is valid until they serve another user.
struct UserActivity {
    let traits: UserTraits
    /// getTimeline multiplier per local day (days + 1 entries).
    let dayFactor: UnsafePointer<Double>
    /// Whether each local day is spent in Low Power Mode (days + 1 entries).
    let lowPower: UnsafePointer<Bool>
    let widget: WidgetStream

    /// Draws user `user`'s activity for `model`'s run into `buffers` (made for a model of the same run).
    init(model: borrowing SimulationModel, user: Int, buffers: ActivityBuffers) {
        let traits = UserTraits(model: model, user: user)
        self.traits = traits
        let seed = model.scenario.horizon.seed
        let run = UInt64(model.run)
        let u = UInt64(user)

        // Per local day: how busy, and whether in Low Power Mode.
        var dayRNG = RandomStream(seed: seed, .days, run, u)
        let days = buffers.days
        let dayFactor = buffers.dayFactor
        let lowPower = buffers.lowPower
        model.dayFactorQuantiles.withUnsafeBufferPointer { levels in
            for d in 0...days { dayFactor[d] = levels[Int(dayRNG.next() >> UInt64(64 - SimulationModel.dayFactorLevelBits))] }
        }
        let lowPowerProbability = traits.lowPowerProbability
        for d in 0...days { lowPower[d] = dayRNG.bernoulli(lowPowerProbability) }
        self.dayFactor = UnsafePointer(dayFactor)
        self.lowPower = UnsafePointer(lowPower)

        var widgetRNG = RandomStream(seed: seed, .widgetRequests, run, u)
        let systemPerDay = max(traits.systemReloadsPerDay * Double(traits.instances), 0)
        let glances = max(traits.glancesPerDay, 0)
        let rotations = traits.smartStackRotationsPerDay
        let taps = traits.tapsPerDay
        let calendar = model.dayFactors
        widget = WidgetStream.generate(
            in: buffers, days: days, callsPerDay: { systemPerDay * dayFactor[$0] },
            glancesPerDay: { glances * calendar[$0].glances }, rotationsPerDay: { rotations * calendar[$0].glances },
            tapsPerDay: { taps * calendar[$0].glances }, rng: &widgetRNG, tables: ExponentialTables.shared)
    }
}

/// Memory for one user's `UserActivity` at a time, reused user after user: per-day calendars
/// and the widget's events (grown on demand), plus the widget's day shape they are drawn from.
package final class ActivityBuffers {
    /// Simulated local days (the calendars hold days + 1 entries).
    let days: Int
    let dayFactor: UnsafeMutablePointer<Double>
    let lowPower: UnsafeMutablePointer<Bool>
    /// The widget's day shape (`ShapeTable` storage).
    private let shapeDoubles: UnsafeMutablePointer<Double>
    private let shapeSlots: UnsafeMutablePointer<UInt8>
    let widgetShape: ShapeTable
    /// The widget's events of the user being simulated (see `WidgetStream`).
    private(set) var widgetTimes: UnsafeMutablePointer<Double>
    private(set) var widgetKinds: UnsafeMutablePointer<WidgetEventKind>
    private(set) var widgetCapacity: Int

    init(model: SimulationModel) {
        days = model.simulatedDays
        dayFactor = .allocate(capacity: days + 1)
        lowPower = .allocate(capacity: days + 1)
        shapeDoubles = .allocate(capacity: ShapeTable.doubles)
        shapeSlots = .allocate(capacity: ShapeTable.hourSlots)
        widgetShape = ShapeTable.write(model.widgetShape, doubles: shapeDoubles, slots: shapeSlots)
        widgetCapacity = 4_096
        widgetTimes = .allocate(capacity: widgetCapacity + 1)
        widgetKinds = .allocate(capacity: widgetCapacity + 1)
    }

    deinit {
        dayFactor.deallocate()
        lowPower.deallocate()
        shapeDoubles.deallocate()
        shapeSlots.deallocate()
        widgetTimes.deallocate()
        widgetKinds.deallocate()
    }

    /// Makes room for at least `count` widget events (plus the end marker), keeping the first `kept`.
    func reserveWidgetEvents(_ count: Int, keeping kept: Int) {
        guard count > widgetCapacity else { return }
        let capacity = max(count, 2 * widgetCapacity)
        let times = UnsafeMutablePointer<Double>.allocate(capacity: capacity + 1)
        let kinds = UnsafeMutablePointer<WidgetEventKind>.allocate(capacity: capacity + 1)
        times.initialize(from: widgetTimes, count: kept)
        kinds.initialize(from: widgetKinds, count: kept)
        widgetTimes.deallocate()
        widgetKinds.deallocate()
        widgetTimes = times
        widgetKinds = kinds
        widgetCapacity = capacity
    }
}
