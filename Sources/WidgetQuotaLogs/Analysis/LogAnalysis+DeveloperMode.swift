import WidgetQuotaSupport

extension LogAnalysis {
    /// The most getTimeline calls a widget instance gets in a day on a device in the field: an
    /// Apple engineer's "72 manual refreshes per day" on Apple's Developer Forums, above the
    /// 40–70 of Apple's "Keeping a widget up to date".
    package static let productionReloadsPerInstanceDay = 72.0

    /// A note on devices that logged more getTimeline calls per widget instance than any
    /// production reload budget allows (nil when none did): WidgetKit Developer Mode and an
    /// attached debugger lift the budget, and such logs overstate what users' devices do.
    static func developerModeNote(_ devices: [DeviceSummary]) -> String? {
        let beyond = devices.filter { $0.getTimelinePerDay / Double(max($0.instances, 1)) > productionReloadsPerInstanceDay }
        guard !beyond.isEmpty else { return nil }
        let rates = beyond.map { $0.getTimelinePerDay / Double(max($0.instances, 1)) }
        let low = NumberText.fixed(rates.min()!, digits: 0)
        let high = NumberText.fixed(rates.max()!, digits: 0)
        let range = low == high ? low : "\(low)–\(high)"
        return "\(beyond.count) of \(devices.count) devices logged \(range) getTimeline calls a day per widget instance the logs "
            + "name, more than any production reload budget allows (about \(NumberText.fixed(productionReloadsPerInstanceDay, digits: 0)); "
            + "logs that do not name each placement count a device's placements as one, and the app's foreground reloads "
            + "and taps are outside the budget): "
            + "WidgetKit Developer Mode or an attached debugger lifts the budget, so these logs overstate what users' devices do. "
            + "Capture honest ones with `log collect` on devices without Developer Mode (Settings > Developer) or Xcode attached, "
            + "over about a week, and calibrate from those."
    }
}
