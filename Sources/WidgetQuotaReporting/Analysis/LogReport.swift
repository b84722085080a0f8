import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaSupport

/// Renders a `LogAnalysis` as Markdown, CSV (one row per device-day) or JSON; byte-identical for
/// the same input.
package struct LogReport: Sendable {
    package let analysis: LogAnalysis

    package init(_ analysis: LogAnalysis) { self.analysis = analysis }

    /// The files `report` writes for a log analysis: Markdown, then JSON.
    package static let fileNames = ["analysis.md", "analysis.json"]

    /// Pretty, key-sorted JSON with the stable CI keys.
    package func json() throws -> String { try JSONOutput.encode(analysis) }

    /// One row per device-day: the data behind every figure.
    package func csv() -> String {
        var w = CSVWriter(header: [
            "device", "date", "getTimeline", "getTimelineSystem", "timelineErrors", "apiRequests", "appRequests",
            "extensionRequests", "backgroundRequests", "failedRequests", "fetchErrors", "bgTaskSubmits",
            "bgTaskLaunches", "bgTaskExpirations", "reloadCalls", "reloadOutcomes", "appOpens",
            "lowPowerMode", "smartStack",
        ])
        for m in analysis.measurements {
            for (i, d) in m.days.enumerated() {
                w.appendRow([
                    .text(m.device), .text(LogTimestamp.dateText(day: m.dayNumbers[i])), .integer(d.getTimeline),
                    .integer(d.getTimelineSystem), .integer(d.timelineErrors), .integer(d.apiRequests), .integer(d.appRequests),
                    .integer(d.extensionRequests), .integer(d.backgroundRequests), .integer(d.failedRequests),
                    .integer(d.fetchErrors), .integer(d.bgSubmits), .integer(d.bgLaunches), .integer(d.bgExpirations),
                    .integer(d.reloadCalls), .integer(d.reloadOutcomes), .integer(d.appOpens),
                    .text(d.lowPowerMode ? "true" : "false"), m.smartStack.map { .text(String($0)) } ?? .empty,
                ])
            }
        }
        return w.output
    }

    /// Findings shown in the Markdown; the JSON holds them all.
    package static let maxFindingsShown = 20

    /// The "Checklist" section when the logs breach a rule, else one line saying what was checked.
    func checklistMarkdown() -> String {
        let a = analysis
        guard !a.rulesChecked.isEmpty else { return "" }
        let ids = a.rulesChecked.map { "`\($0.rawValue)`" }.joined(separator: ", ")
        let findings = a.findings
        guard !findings.isEmpty else {
            return "Checklist: \(a.rulesChecked.count) rules checked in the logs (\(ids)), none breached.\n\n"
        }
        var out = "## Checklist\n\n"
        out +=
            "The pre-release checklist's rules that logs can show (\(ids)), with the ids `lint` uses. "
            + "Each finding points at the first log line that shows it.\n\n"
        var t = MarkdownTable(["Severity", "Rule", "Where", "Finding", "Fix"], alignments: Array(repeating: .left, count: 5))
        for f in findings.prefix(Self.maxFindingsShown) {
            t.append([
                f.severity.rawValue, "`\(f.rule.rawValue)`", "`\(f.location.description)`", f.message, f.fix,
            ])
        }
        out += t.markdown
        if findings.count > Self.maxFindingsShown {
            out += "\n(\(findings.count - Self.maxFindingsShown) more findings in --format json)\n"
        }
        return out + "\n"
    }

    /// The human report.
    package func markdown() -> String {
        let a = analysis
        func n(_ v: Double) -> String { NumberText.human(v) }
        func opt(_ v: Double?, percent: Bool = false) -> String {
            guard let v else { return "–" }
            return percent ? NumberText.percent(v) : n(v)
        }
        var out = "# Log analysis\n\n"
        out +=
            "What the logged devices did. A projection does not use these figures unless it is calibrated from them: "
            + "`widget-quota analyze LOGS --emit-scenario measured.json`, then `widget-quota simulate --scenario measured.json`.\n\n"
        var inputs = MarkdownTable(["Input", "Value"])
        inputs.append(["Files", a.files.map { "\($0.path) (\($0.format))" }.joined(separator: ", ")])
        inputs.append(["Devices", String(a.devices)])
        inputs.append(["Device-days (device-local)", String(a.deviceDays)])
        inputs.append(["Lines read", ReportFormat.whole(Double(a.linesRead))])
        inputs.append(["Lines recognised", ReportFormat.whole(Double(a.linesRecognised))])
        inputs.append(["Lines malformed", ReportFormat.whole(Double(a.malformedLines))])
        if !a.extensionProcesses.isEmpty { inputs.append(["Widget extension", a.extensionProcesses.joined(separator: ", ")]) }
        if !a.appProcesses.isEmpty { inputs.append(["App", a.appProcesses.joined(separator: ", ")]) }
        out += inputs.markdown + "\n"
        if a.appProcesses.count > 1 || a.extensionProcesses.count > 1 {
            let names = (a.appProcesses.count > 1 ? a.appProcesses : a.extensionProcesses).joined(separator: ", ")
            out +=
                "**Mixed apps.** These logs come from more than one app (\(names)), and every figure below is over all "
                + "their devices together, as if they ran one design. Analyse each app's logs on their own for its figures.\n\n"
        }

        out += "## Per device-day\n\n"
        var table = MarkdownTable(["Figure", "Mean", "p50", "p95", "Max"])
        let p = a.perDeviceDay
        for (name, s) in [
            ("getTimeline calls", p.getTimeline), ("API requests", p.apiRequests), ("– by the app", p.appRequests),
            ("– by the extension", p.extensionRequests), ("Background launches", p.bgTaskLaunches),
            ("Background expirations", p.bgTaskExpirations), ("Reload calls", p.reloadCalls), ("App opens", p.appOpens),
        ] {
            table.append([name, n(s.mean), n(s.p50), n(s.p95), n(s.max)])
        }
        out += table.markdown + "\n"

        var ratios = MarkdownTable(["Figure", "Value"])
        ratios.append(["Implied API requests per user per month", a.requestsPerUserPerMonth.map(n) ?? "–"])
        ratios.append(["Reload calls per successful API request (app and extension)", opt(a.reloadCallsPerSuccessfulFetch)])
        ratios.append(["API error rate", opt(a.apiErrorRate, percent: true)])
        ratios.append(["getTimeline error rate", opt(a.timelineErrorRate, percent: true)])
        out += ratios.markdown + "\n"
        out += checklistMarkdown()

        if let s = a.smartStack {
            out += "## Smart Stack\n\n"
            var t = MarkdownTable(["Figure", "Value"])
            let known = s.devicesWithData.map { " of the \($0) whose logs say" } ?? ""
            t.append(["Devices with the widget in a Smart Stack", "\(s.devices)\(known) (\(NumberText.percent(s.share)))"])
            t.append(["System-initiated getTimeline per instance-day, in a Smart Stack", opt(s.getTimelinePerInstanceDayInStack)])
            t.append(["System-initiated getTimeline per instance-day, elsewhere", opt(s.getTimelinePerInstanceDayOutside)])
            t.append(["Uplift", opt(s.uplift)])
            out += t.markdown + "\n"
        }
        if let l = a.lowPowerMode {
            out += "## Low Power Mode\n\n"
            var t = MarkdownTable(["Figure", "Low Power Mode days", "Other days"])
            t.append(["Device-days", "\(l.days) (\(NumberText.percent(l.share)))", String(a.deviceDays - l.days)])
            t.append(["getTimeline per day", n(l.getTimelineOnLowPowerDays), n(l.getTimelineOnOtherDays)])
            t.append(["Background launches per day", n(l.bgTaskLaunchesOnLowPowerDays), n(l.bgTaskLaunchesOnOtherDays)])
            out += t.markdown + "\n"
        }

        out += "## Devices\n\n"
        var devices = MarkdownTable([
            "Device", "Days", "Instances", "Smart Stack", "LPM days", "getTimeline/day", "API/day",
            "App/day", "Extension/day", "BG launches/day", "Expirations", "Failed requests",
        ])
        let shown = a.perDevice.prefix(50)
        for d in shown {
            devices.append([
                d.device, String(d.days), String(d.instances), d.smartStack.map { $0 ? "yes" : "no" } ?? "–",
                String(d.lowPowerDays), n(d.getTimelinePerDay), n(d.apiRequestsPerDay), n(d.appRequestsPerDay),
                n(d.extensionRequestsPerDay), n(d.bgTaskLaunchesPerDay), String(d.bgTaskExpirations), String(d.failedRequests),
            ])
        }
        out += devices.markdown
        if a.perDevice.count > shown.count { out += "\n(\(a.perDevice.count - shown.count) more devices in --format csv or json)\n" }
        out += "\n"

        if !a.topErrors.isEmpty {
            out += "## Most frequent errors\n\n"
            var t = MarkdownTable(["Message (redacted)", "Count"])
            for e in a.topErrors { t.append([e.message, String(e.count)]) }
            out += t.markdown + "\n"
        }
        if a.malformedLines > 0 {
            out +=
                "## Malformed lines\n\n\(a.malformedLines) line\(a.malformedLines == 1 ? "" : "s") fit no record and were not counted (`--strict` stops at the first). The first:\n\n"
            out += a.malformedExamples.map { "- `\($0)`\n" }.joined() + "\n"
        }
        if !a.notes.isEmpty {
            out += "## Notes\n\n" + a.notes.map { "- \(PrintableText.clean($0))\n" }.joined()
        }
        return out
    }
}
