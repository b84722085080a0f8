import Foundation
import WidgetQuotaSupport

/// Compares two log analyses (`analyze --format json`, BASE and HEAD) for the same pull-request
/// comment as `ReportDiff`: the figures over all devices, then per device, each marked better,
/// worse or unchanged (fewer requests, errors and reload calls are better), and the inputs that
/// changed. Logs are measurements: there is no Monte-Carlo noise to allow for.
package struct LogDiff: Sendable {
    /// One row: all devices, or one device (named by its log file).
    public struct Row: Sendable, Equatable {
        public var name: String
        public var figures: [ReportDiff.Figure]

        /// Added or removed, worse when any figure is worse, better when any is better, else unchanged.
        public var movement: ReportDiff.Movement {
            if figures.allSatisfy({ $0.base == nil }) { return .added }
            if figures.allSatisfy({ $0.head == nil }) { return .removed }
            let all = figures.map(\.movement)
            if all.contains(.worse) { return .worse }
            if all.contains(.better) { return .better }
            if all.contains(.added) { return .added }
            return all.contains(.removed) ? .removed : .unchanged
        }

        public var isChanged: Bool { movement != .unchanged }
    }

    /// The figures over all devices: path in the analysis JSON, title, unit.
    package static let summaryMetrics: [ReportDiff.Metric] = [
        .init(path: "requestsPerUserPerMonth", title: "requests per user a month", unit: .count),
        .init(path: "perDeviceDay.apiRequests", title: "API requests per device-day", unit: .count),
        .init(path: "apiErrorRate", title: "API error rate", unit: .share),
        .init(path: "timelineErrorRate", title: "timeline error rate", unit: .share),
        .init(path: "reloadCallsPerSuccessfulFetch", title: "reload calls per successful fetch", unit: .count),
    ]

    /// The figures per device.
    package static let deviceMetrics: [ReportDiff.Metric] = [
        .init(path: "apiRequestsPerDay", title: "API requests a day", unit: .count),
        .init(path: "extensionRequestsPerDay", title: "widget requests a day", unit: .count),
        .init(path: "appRequestsPerDay", title: "app requests a day", unit: .count),
        .init(path: "failedRequests", title: "failed requests", unit: .count),
        .init(path: "fetchErrors", title: "fetch errors", unit: .count),
    ]

    package let summary: Row
    package let devices: [Row]
    /// Inputs that differ: the files read, devices, device-days, lines.
    package let changedInputs: [ReportDiff.ChangedValue]

    /// True when `json` is a log analysis (`analyze --format json`).
    package static func isAnalysis(_ json: JSONValue) -> Bool {
        json["perDevice"]?.array != nil && json["requestsPerUserPerMonth"] != nil
    }

    package init(base: JSONValue, head: JSONValue) {
        summary = Row(
            name: "All devices",
            figures: LogDiff.summaryMetrics.map {
                LogDiff.figure($0, base: LogDiff.estimate(base, $0.path), head: LogDiff.estimate(head, $0.path))
            })
        func byDevice(_ json: JSONValue) -> [(name: String, value: JSONValue)] {
            (json["perDevice"]?.array ?? []).compactMap { d in d["device"]?.string.map { ($0, d) } }
        }
        let old = byDevice(base)
        let new = byDevice(head)
        var names = old.map(\.name)
        for item in new where !names.contains(item.name) { names.append(item.name) }
        devices = names.map { name in
            let b = old.first { $0.name == name }?.value
            let h = new.first { $0.name == name }?.value
            return Row(
                name: name,
                figures: LogDiff.deviceMetrics.map { metric in
                    LogDiff.figure(
                        metric, base: b.flatMap { LogDiff.estimate($0, metric.path) }, head: h.flatMap { LogDiff.estimate($0, metric.path) }
                    )
                })
        }
        var inputs = [ReportDiff.ChangedValue]()
        for key in ["files", "devices", "deviceDays", "linesRead", "linesRecognised", "malformedLines"] {
            let b = ReportDiff.collapsingLists(
                (base[key]?.array?.compactMap { $0["path"] }).map { JSONValue.array($0).leaves(prefix: key) } ?? base[key]?.leaves(
                    prefix: key) ?? [])
            let h = ReportDiff.collapsingLists(
                (head[key]?.array?.compactMap { $0["path"] }).map { JSONValue.array($0).leaves(prefix: key) } ?? head[key]?.leaves(
                    prefix: key) ?? [])
            let oldValue = b.first?.value
            let newValue = h.first?.value
            if oldValue != newValue { inputs.append(.init(design: nil, path: key, old: oldValue, new: newValue)) }
        }
        changedInputs = inputs
    }

    /// True when no figure and no input changed.
    package var isUnchanged: Bool { !summary.isChanged && !devices.contains(where: \.isChanged) && changedInputs.isEmpty }

    /// A figure's value: a number, or an object's `mean` with its percentiles.
    static func estimate(_ json: JSONValue, _ path: String) -> ReportDiff.Estimate? {
        var node: JSONValue? = json
        for key in path.split(separator: ".") { node = node?[String(key)] }
        if let n = node?.number { return .init(mean: n) }
        guard let mean = node?["mean"]?.number else { return nil }
        return .init(mean: mean, p5: node?["p5"]?.number, p50: node?["p50"]?.number, p95: node?["p95"]?.number)
    }

    static func figure(_ metric: ReportDiff.Metric, base: ReportDiff.Estimate?, head: ReportDiff.Estimate?) -> ReportDiff.Figure {
        let movement: ReportDiff.Movement
        switch (base, head) {
        case (nil, nil): movement = .unchanged
        case (nil, _): movement = .added
        case (_, nil): movement = .removed
        case (let b?, let h?): movement = b.mean == h.mean ? .unchanged : (h.mean < b.mean ? .better : .worse)
        }
        return ReportDiff.Figure(metric: metric, base: base, head: head, movement: movement)
    }
}
