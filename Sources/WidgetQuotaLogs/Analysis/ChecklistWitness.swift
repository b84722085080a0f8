import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// What one process of one device did that the pre-release checklist cares about, counted in log
/// order as records arrive: memory grows with processes, never with lines.
///
/// Records of the trace format name no process: their app-side events share the key `""` and the
/// extension's requests and snapshots share `ChecklistTrail.extensionKey`.
package struct ChecklistTrail: Sendable {
    /// The key of trace records the widget extension logged (no process name can be empty of
    /// printable characters like this one).
    static let extensionKey = "\u{1}extension"

    /// A reload call this long after a failed fetch, with no successful fetch between, belongs
    /// to the same refresh: a background refresh gets about 30 s, and an app's foreground fetch
    /// and its reload happen within seconds.
    package static let failureWindowSeconds = 60.0
    /// An API request from the extension this soon after a `getSnapshot` or `placeholder` record,
    /// with no getTimeline between, is taken as made for the snapshot: WidgetKit expects a snapshot
    /// in well under a few seconds.
    package static let snapshotWindowSeconds = 10.0

    var reloadCalls = 0
    var successfulFetches = 0
    var failedFetches = 0
    /// Reload calls with no successful fetch since the previous reload call (or since the start).
    var unlicensedReloads = 0
    var firstUnlicensedReload: Finding.Location?
    var reloadsAfterFailure = 0
    var firstReloadAfterFailure: Finding.Location?
    var requests = 0
    var firstRequest: Finding.Location?
    var snapshotRequests = 0
    var firstSnapshotRequest: Finding.Location?
    var snapshots = 0

    private var fetchedSinceReload = false
    private var lastFailure: Double?
    private var lastSnapshot: Double?

    /// Counts one event of this process; `at` is where its record is.
    mutating func add(_ e: LogEvent, at location: @autoclosure () -> Finding.Location) {
        let t = e.time.localSeconds
        switch e.kind {
        case .apiRequest:
            requests += 1
            if firstRequest == nil { firstRequest = location() }
            if let s = lastSnapshot, t >= s, t - s <= Self.snapshotWindowSeconds {
                snapshotRequests += 1
                if firstSnapshotRequest == nil { firstSnapshotRequest = location() }
            }
            if e.outcome == .failure {
                failedFetches += 1
                lastFailure = t
            } else {
                successfulFetches += 1
                fetchedSinceReload = true
                lastFailure = nil
            }
        case .fetchError:
            failedFetches += 1
            lastFailure = t
        case .reloadAllTimelines, .reloadTimelines:
            reloadCalls += 1
            if !fetchedSinceReload {
                unlicensedReloads += 1
                if firstUnlicensedReload == nil { firstUnlicensedReload = location() }
            }
            fetchedSinceReload = false
            if let f = lastFailure, t >= f, t - f <= Self.failureWindowSeconds {
                reloadsAfterFailure += 1
                if firstReloadAfterFailure == nil { firstReloadAfterFailure = location() }
            }
        case .getSnapshot, .placeholder:
            snapshots += 1
            lastSnapshot = t
        case .getTimeline:
            lastSnapshot = nil
        default: break
        }
    }

    /// The key of an event's process; nil for events the checklist does not look at.
    static func key(of e: LogEvent) -> String? {
        switch e.kind {
        case .apiRequest:
            if let p = e.process { return p }
            return e.actor == .widgetExtension ? extensionKey : ""
        case .getSnapshot, .placeholder, .getTimeline:
            return e.process ?? extensionKey
        case .fetchError, .reloadAllTimelines, .reloadTimelines:
            return e.process ?? ""
        default: return nil
        }
    }

    /// Adds another trail of the same role (several processes of one device).
    mutating func merge(_ o: ChecklistTrail) {
        reloadCalls += o.reloadCalls
        successfulFetches += o.successfulFetches
        failedFetches += o.failedFetches
        unlicensedReloads += o.unlicensedReloads
        reloadsAfterFailure += o.reloadsAfterFailure
        requests += o.requests
        snapshotRequests += o.snapshotRequests
        snapshots += o.snapshots
        firstUnlicensedReload = Self.earlier(firstUnlicensedReload, o.firstUnlicensedReload)
        firstReloadAfterFailure = Self.earlier(firstReloadAfterFailure, o.firstReloadAfterFailure)
        firstRequest = Self.earlier(firstRequest, o.firstRequest)
        firstSnapshotRequest = Self.earlier(firstSnapshotRequest, o.firstSnapshotRequest)
    }

    private static func earlier(_ a: Finding.Location?, _ b: Finding.Location?) -> Finding.Location? {
        guard let a else { return b }
        guard let b else { return a }
        return b < a ? b : a
    }
}

/// The checklist rules that logs can show, checked over every device's trails once the app and
/// the extension are known.
package enum ChecklistWitness {
    /// The rules `analyze` checks.
    package static let rules: [ChecklistRule] = [.widgetNetworkCall, .snapshotNetwork, .reloadMisuse]
    /// The severity of a reload-misuse and of a snapshot-network finding: lint's default severity
    /// for each rule (a test of the kit holds them equal). A widget-network-call finding's depends
    /// on the design the logs are said to come from.
    package static let reloadMisuseSeverity = FindingSeverity.warning
    package static let snapshotNetworkSeverity = FindingSeverity.error
    /// The fix of a reload-misuse finding that is not about a failed fetch.
    static let reloadOnceFix =
        "Call reloadTimelines(ofKind:) once, after a fetch succeeds and the cache is written; not on every foreground, "
        + "in a loop or in a catch."

    /// One device's trails by role, and how many days it was observed.
    struct DeviceTrails {
        var device: String
        var days: Int
        var app: ChecklistTrail
        var widgetExtension: ChecklistTrail
    }

    /// Findings of every device, in `Finding.sorted` order.
    ///
    /// - Parameter claimedDesign: the design the logs are said to come from (`--design`); it
    ///   decides how grave requests from the extension are.
    static func findings(_ devices: [DeviceTrails], claimedDesign: Design?) -> [Finding] {
        var out = [Finding]()
        for d in devices {
            let a = d.app
            let on = "on device \(d.device)"
            if a.successfulFetches > 0, a.reloadCalls > a.successfulFetches, let at = a.firstUnlicensedReload {
                let ratio = Double(a.reloadCalls) / Double(a.successfulFetches)
                out.append(
                    Finding(
                        rule: .reloadMisuse, severity: reloadMisuseSeverity, location: at,
                        message: "\(NumberText.fixed(ratio, digits: 1)) reload calls per successful fetch \(on) "
                            + "(\(a.reloadCalls) reload calls, \(a.successfulFetches) successful fetches; "
                            + "\(a.unlicensedReloads) with no successful fetch since the previous reload, the first here)",
                        fix: reloadOnceFix))
            }
            if a.successfulFetches == 0, a.failedFetches > 0, a.reloadCalls > 0, let at = a.firstUnlicensedReload {
                out.append(
                    Finding(
                        rule: .reloadMisuse, severity: reloadMisuseSeverity, location: at,
                        message: "\(a.reloadCalls) reload call\(a.reloadCalls == 1 ? "" : "s") and no successful fetch \(on) "
                            + "(\(a.failedFetches) failed fetch\(a.failedFetches == 1 ? "" : "es"); the first reload here)",
                        fix: reloadOnceFix))
            }
            if a.reloadsAfterFailure > 0, let at = a.firstReloadAfterFailure {
                let n = a.reloadsAfterFailure
                out.append(
                    Finding(
                        rule: .reloadMisuse, severity: reloadMisuseSeverity, location: at,
                        message: "\(n) reload call\(n == 1 ? "" : "s") within \(Int(ChecklistTrail.failureWindowSeconds)) s "
                            + "after a failed fetch \(on) (of \(a.failedFetches) failed fetches; the first here)",
                        fix: "After a failed fetch keep the cached timeline: reload only when new data was written."))
            }
            let e = d.widgetExtension
            if e.requests > 0, let at = e.firstRequest {
                let perDay = Double(e.requests) / Double(max(1, d.days))
                let severity: FindingSeverity
                let claim: String
                if let design = claimedDesign {
                    let widgetFetches = design.fetchTriggers.contains(.getTimeline)
                    severity = widgetFetches ? .warning : .error
                    claim = widgetFetches ? "; \(design.name) fetches in the widget" : "; \(design.name) says the widget does not fetch"
                } else {
                    severity = .note
                    claim = "; a note, since no --design was named"
                }
                out.append(
                    Finding(
                        rule: .widgetNetworkCall, severity: severity, location: at,
                        message: "\(e.requests) API request\(e.requests == 1 ? "" : "s") from the widget extension \(on) "
                            + "(\(NumberText.fixed(perDay, digits: 1)) per device-day\(claim))",
                        fix: "Fetch in the app (foreground and a BGAppRefreshTask), write an App Group cache, and have "
                            + "getTimeline read only the cache."))
            }
            if e.snapshotRequests > 0, let at = e.firstSnapshotRequest {
                let n = e.snapshotRequests
                out.append(
                    Finding(
                        rule: .snapshotNetwork, severity: snapshotNetworkSeverity, location: at,
                        message: "\(n) API request\(n == 1 ? "" : "s") from the widget extension within "
                            + "\(Int(ChecklistTrail.snapshotWindowSeconds)) s of a snapshot or placeholder \(on) "
                            + "(\(e.snapshots) snapshots and placeholders; the first here)",
                        fix: "Return sample or cached content from placeholder(in:) and getSnapshot(in:completion:) at once; "
                            + "fetch only in the app."))
            }
        }
        return Finding.sorted(out)
    }
}
