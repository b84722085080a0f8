import WidgetQuotaCharts
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// The report's section on what many users share: key groups with hours of their own, backend
/// designs (paid requests per content key, the load their servers carry), what happened to silent pushes (broadcast or each
/// user's own), and each calendar event's day. Nil when the scenario has none of these.
package struct SharedContentSection {
    static let title = "Shared content, pushes and events"
    let result: SimulationResult

    package init(result: SimulationResult) { self.result = result }

    var designs: [Design] { result.method.designs.compactMap { name in result.scenario.availableDesigns.first { $0.name == name } } }

    func rows(_ design: String) -> [DesignResult] {
        result.results.filter { $0.design == design }.sorted { $0.users < $1.users }
    }

    func blocks() -> [PageBlock]? {
        var blocks = [PageBlock]()
        if let groups = groupTable() {
            blocks.append(
                .paragraph(
                    "**Key groups** change in hours of their own (`content.groups`). A user's data can change whenever one of the "
                        + "groups they follow is open: for a user with one key of a group open at every hour, every glance counts as "
                        + "in open hours, and a policy that follows the hours never waits. *Users who follow one*: the share of users "
                        + "with at least one key of the group; *Followed*: the keys of the group that at least one user follows."))
            blocks.append(.table(groups, label: "Key groups"))
        }
        if let backend = backendTable() {
            let content = result.scenario.content
            let top = content.shares.first ?? 1
            blocks.append(
                .paragraph(
                    "**Backend designs** call the paid API on the owner's backend, once per content key and regeneration "
                        + "(\(ReportFormat.whole(Double(content.keys))) keys; the most popular holds \(NumberText.percent(top, digits: 0)) of the users), "
                        + "and serve the answer to every device of the key. Their paid requests follow the keys, not the users; "
                        + "the devices' fetches are what the backend or its CDN carries. A device's content can be as old as "
                        + "the backend's cache lifetime when fetched (*Answer age*)."))
            blocks.append(.table(backend, label: "Backend designs: paid requests and backend load"))
        }
        if let pushes = pushTable() {
            let window = NumberText.plain(result.scenario.content.deliveryWindowSeconds)
            blocks.append(
                .paragraph(
                    "**Silent pushes.** A *broadcast* push reaches every device of a content key within \(window) s of a change; "
                        + "*per user* pushes come at each device's own times (within the calendar's windows of changes or the open hours of the user's keys, when the scenario sets them). iOS wakes the app for a share of them only: not when "
                        + "the user force-quit it, not in Low Power Mode, at most "
                        + "\(NumberText.plain(result.scenario.platform.silentPushesPerHour)) an hour and the app's share of the "
                        + "device's daily background budget (`platform.silentPushesPerDay`, "
                        + "\(result.scenario.platform.silentPushesPerDay.summary)), and not always then "
                        + "(Apple's \"Pushing background updates to your App\"). A *WidgetKit* push (iOS 26) reloads the "
                        + "widget's timelines as a reload call does, spending its budget; *Delivered* is the silent pushes' share."))
            blocks.append(.table(pushes, label: "Silent pushes"))
        }
        if let live = liveEventTable() {
            let platform = result.scenario.platform
            blocks.append(
                .paragraph(
                    "**Live events** (the calendar's windows of data changes: a match) against **Live Activities**. *Behind* is the "
                        + "share of glances during the events whose widget or Live Activity misses a change of the key made at least a "
                        + "minute before. A Live Activity starts with the event for a share of the key's users and lasts at most "
                        + "\(NumberText.plain(platform.liveActivityMaxHours)) hours (Apple's \"Displaying live data with Live Activities\"); "
                        + "the owner's backend calls the paid API once per change of a key and sends an ActivityKit push per change, to a "
                        + "channel or to each device. Priority-10 pushes spend an hourly budget Apple does not publish "
                        + "(`platform.liveActivityUpdatesPerHour`, \(platform.liveActivityUpdatesPerHour.summary); with frequent updates "
                        + "\(platform.liveActivityFrequentUpdatesPerHour.summary)) and the rest are *throttled*; priority-5 pushes spend "
                        + "none and arrive late (`platform.liveActivityLowPriorityDelayMinutes`, "
                        + "\(platform.liveActivityLowPriorityDelayMinutes.summary) min). Users without an activity see the widget."))
            blocks.append(.table(live, label: "Live events and Live Activities"))
        }
        for event in result.scenario.calendar.events {
            blocks.append(.heading("\(event.name), day \(event.day)"))
            blocks.append(
                .paragraph(
                    "That UTC day's paid requests, cost and busiest minute, and the cheapest tier whose limits it breaks in at most "
                        + "\(NumberText.percent(result.scenario.quotas.acceptableRisk, digits: 0)) of the runs."))
            blocks.append(.table(eventTable(event), label: "Event: \(event.name)"))
        }
        return blocks.isEmpty ? nil : blocks
    }

    package func markdown() -> String? {
        guard let blocks = blocks() else { return nil }
        return "## \(Self.title)\n\n" + blocks.map(\.markdown).joined()
    }

    func page() -> PageSection? {
        blocks().map { PageSection(title: Self.title, blocks: $0) }
    }

    /// Each key group's keys, hours, change rate, followers and followed keys at each population
    /// (nil without `content.groups`).
    func groupTable() -> MarkdownTable? {
        let content = result.scenario.content
        guard let groups = content.groups, !groups.isEmpty else { return nil }
        let populations = Array(Set(result.results.map(\.users))).sorted()
        var t = MarkdownTable(
            ["Group", "Keys", "Open", "Data changes", "Users who follow one"]
                + populations.map { "Followed, \(ReportFormat.users($0)) users" })
        let followShares = content.groupFollowShares
        for (g, group) in groups.enumerated() {
            let changes = group.changeFactor == 1 ? "as `api.dataChangesPerDay`" : "\(NumberText.plain(group.changeFactor))×"
            t.append(
                [
                    group.name, ReportFormat.whole(Double(group.keys)), group.hours.map(Self.describe) ?? "at every hour", changes,
                    NumberText.percent(content.usersFollowing(followShare: followShares[g]), digits: 0),
                ] + populations.map { ReportFormat.whole(content.followedKeys(users: $0, group: g)) })
        }
        return t
    }

    /// `09:30–16:00 America/New_York, weekdays, 1 holiday`.
    static func describe(_ hours: OpenHours) -> String {
        let days =
            hours.weekdays == OpenHours().weekdays
            ? "weekdays"
            : Weekday.allCases.count == hours.weekdays.count ? "every day" : hours.weekdays.map(\.rawValue).joined(separator: ", ")
        let holidays = hours.holidays.isEmpty ? "" : ", \(hours.holidays.count) holiday\(hours.holidays.count == 1 ? "" : "s")"
        return "\(hours.open)–\(hours.close) \(hours.timeZone), \(days)\(holidays)"
    }

    func backendTable() -> MarkdownTable? {
        let backends = designs.filter { $0.backend != nil }
        guard !backends.isEmpty else { return nil }
        var t = MarkdownTable([
            "Design", "Users", "Regenerates", "Paid requests a month", "Paid cost a month", "Backend requests a day",
            "Backend busiest minute", "Backend cost a month", "Answer age",
        ])
        for design in backends {
            for r in rows(design.name) {
                guard let b = r.backend else { continue }
                t.append([
                    design.name, ReportFormat.users(r.users), b.regenerate, ReportFormat.whole(r.totalRequestsPerMonth.mean),
                    r.cost.map { ReportFormat.money($0.perMonth.mean) } ?? "–", ReportFormat.whole(b.requestsPerDay.mean),
                    ReportFormat.whole(b.peakRequestsPerMinute.mean), b.costPerMonth.map(ReportFormat.money) ?? "not priced",
                    "≤ \(NumberText.plain(b.generationLagMinutes)) min"
                        + (design.backend?.popular.map { " (top \($0.keys) keys ≤ \(NumberText.plain($0.everyMinutes)) min)" } ?? ""),
                ])
            }
        }
        return t
    }

    func pushTable() -> MarkdownTable? {
        let pushing = designs.filter(\.sendsPushes)
        guard !pushing.isEmpty else { return nil }
        var t = MarkdownTable(["Design", "Pushes", "Sent per user-day", "Delivered", "Users", "Busiest minute", "Busiest ÷ mean"])
        for design in pushing {
            for r in rows(design.name) {
                guard let p = r.pushes else { continue }
                let silent = design.fetchTriggers.contains(.push)
                let kinds = [silent ? "silent" : nil, design.fetchTriggers.contains(.widgetPush) ? "WidgetKit" : nil].compactMap { $0 }
                t.append([
                    design.name,
                    (p.scope == Design.PushScope.broadcast.rawValue ? "broadcast" : "per user") + ", " + kinds.joined(separator: " and "),
                    NumberText.plain(silent ? p.sentPerUserDay : p.widgetPushesPerUserDay, maxFractionDigits: 2),
                    silent ? NumberText.percent(p.deliveredShare, digits: 0) : "every one (the budget permitting)",
                    ReportFormat.users(r.users), ReportFormat.whole(r.load.peakRequestsPerMinute.mean),
                    "×" + NumberText.plain(r.load.peakToMeanRatio, maxFractionDigits: 1),
                ])
            }
        }
        return t
    }

    func liveEventTable() -> MarkdownTable? {
        guard result.results.contains(where: { $0.liveEvents != nil }) else { return nil }
        var t = MarkdownTable([
            "Design", "Users", "Paid requests a month", "Glances in events a user-day", "Behind", "Live Activity",
            "Activities a user-day", "Pushes a user-day", "Throttled", "Backend pushes a day", "Activity behind",
        ])
        for design in designs {
            for r in rows(design.name) {
                guard let live = r.liveEvents else { continue }
                var row = [
                    design.name, ReportFormat.users(r.users), ReportFormat.whole(r.totalRequestsPerMonth.mean),
                    NumberText.plain(live.glancesPerUserDay, maxFractionDigits: 2),
                    NumberText.percent(live.behindShare, digits: 1),
                ]
                if let a = live.activity, let activity = design.liveActivity {
                    row += [
                        activity.shortSummary, NumberText.plain(a.perUserDay, maxFractionDigits: 3),
                        NumberText.plain(a.pushesPerUserDay, maxFractionDigits: 2),
                        NumberText.percent(a.throttledShare, digits: 1), ReportFormat.whole(a.backendPushesPerDay),
                        NumberText.percent(a.behindShare, digits: 1),
                    ]
                } else {
                    row += ["none", "–", "–", "–", "–", "–"]
                }
                t.append(row)
            }
        }
        return t
    }

    func eventTable(_ event: CalendarEvent) -> MarkdownTable {
        var t = MarkdownTable(["Design", "Users", "Paid requests that day", "Cost that day", "Busiest minute", "Tier needed"])
        for design in designs {
            for r in rows(design.name) {
                guard let e = r.events.first(where: { $0.event == event.name }) else { continue }
                var peak = ReportFormat.whole(e.peakRequestsPerMinute.mean)
                if let served = e.backendPeakRequestsPerMinute { peak += " (backend \(ReportFormat.whole(served.mean)))" }
                t.append([
                    design.name, ReportFormat.users(r.users), ReportFormat.whole(e.requests.mean), e.cost.map(ReportFormat.money) ?? "–",
                    peak, e.requiredTier ?? (e.exceedsEveryTier ? "above every tier" : "–"),
                ])
            }
        }
        return t
    }
}
