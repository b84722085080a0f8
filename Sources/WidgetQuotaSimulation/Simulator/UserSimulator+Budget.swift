import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// WidgetKit's reload budget: the counted day's end and the budget's daily renewal, which runs
/// the reloads queued while it was spent.
extension UserSimulator {
    mutating func midnight(_ t: Double) {
        let endedDay = day(t) - 1
        if endedDay >= constants.countedFirstDay && endedDay < constants.countedEndDay {
            tally.userDays += 1
            if lowPowerDays[endedDay] { tally.lowPowerDays += 1 }
        }
        let today = day(t)
        if today <= constants.simulatedDays, lowPowerDays[today] != lowPowerDays[max(today - 1, 0)] {
            observer.record(.lowPowerMode(on: lowPowerDays[today]), local: t, utc: utc(t))
        }
    }

    /// The reload budget renews every 24 hours at a moment of the device's own (not at midnight
    /// for everyone, which would line devices up); reloads queued while it was spent run now.
    mutating func budgetReset(_ t: Double) {
        if counted(t - 1) {
            tally.instanceDays += Int64(instances)
            var count: Int64 = 0
            for i in 0..<instances where instanceState.exhausted[i] { count += 1 }
            tally.exhaustedInstanceDays += count
        }
        for i in 0..<instances {
            instanceState.budgetUsed[i] = 0
            instanceState.exhausted[i] = false
            if instanceState.queued[i] {
                instanceState.queued[i] = false
                getTimeline(i, at: t, origin: .queued)
            }
        }
    }
}
