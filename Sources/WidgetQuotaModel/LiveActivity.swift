import Foundation
import WidgetQuotaSupport

/// A Live Activity for each live event of the key a user follows (a match of their team): it
/// starts with the event's window (a day kind's or event's `startHourUTC` and `hours`), the
/// system ends it after `platform.liveActivityMaxHours`, and the owner's backend
/// updates it with an ActivityKit push on each data change of the key (Apple's "Displaying live
/// data with Live Activities" and "Starting and updating Live Activities with ActivityKit push
/// notifications").
///
/// The paid API runs on the backend (the design's `backend`), once per change of a key, whatever
/// the number of fans; the devices receive pushes, not requests.
public struct LiveActivity: Codable, Sendable, Equatable {
    /// The share of a key's users who start the activity for an event (in the app, or accept one
    /// started by push): an assumption of the owner's, 0 ... 1.
    public var startShare: Double = 0.5
    /// `apns-priority` of the updates: 10 is delivered at once and spends the activity's update
    /// budget (`platform.liveActivityUpdatesPerHour`); beyond it the system throttles them.
    /// 5 spends nothing but is delivered when the system chooses
    /// (`platform.liveActivityLowPriorityDelayMinutes`).
    public var priority: Int = 10
    /// `NSSupportsLiveActivitiesFrequentUpdates`: the user allowed frequent updates, which raises
    /// the budget of priority-10 pushes (`platform.liveActivityFrequentUpdatesPerHour`).
    public var frequentUpdates = false
    /// One push per change to a broadcast channel that every device of the key subscribes to
    /// (iOS 18); false: one push per device, to each activity's push token.
    public var channel = true

    /// An activity started by half of a key's users, updated by priority-10 pushes on a channel.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case startShare, priority, frequentUpdates, channel }

    public init(from decoder: Decoder) throws {
        let d = LiveActivity()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        startShare = try c.value(.startShare, or: d.startShare)
        priority = try c.value(.priority, or: d.priority)
        frequentUpdates = try c.value(.frequentUpdates, or: d.frequentUpdates)
        channel = try c.value(.channel, or: d.channel)
    }

    /// True when updates are sent at priority 10 and so spend the budget.
    public var spendsBudget: Bool { priority == 10 }

    /// `priority 10, channel`: how its pushes are sent, in a few words.
    public var updatesSummary: String {
        ["priority \(priority)", channel ? "channel" : "per device", frequentUpdates ? "frequent updates" : nil]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// `priority 10, channel, 50% start`: the parts a table shows.
    public var shortSummary: String { updatesSummary + ", " + NumberText.percent(startShare, digits: 0) + " start" }

    /// `priority 10, channel, frequent updates` in words, for reports.
    public var summary: String {
        var parts = ["priority \(priority)", channel ? "one push per change to a channel" : "one push per device"]
        if frequentUpdates { parts.append("frequent updates") }
        parts.append("started by \(NumberText.percent(startShare, digits: 0)) of a key's users")
        return parts.joined(separator: ", ")
    }
}
