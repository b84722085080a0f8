import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The Assumptions section: every scenario value used, which were uncertain, which were measured
/// by `analyze`, and how the numbers were produced (seed, runs, method).
struct AssumptionsSection {
    let result: SimulationResult
    let sensitivity: SensitivityResult?

    /// One scenario value as the report lists it.
    struct Setting: Equatable {
        var path: String
        var value: String
        var uncertain: Bool
        var calibrated: Bool
    }

    var scenario: Scenario { result.scenario }

    func markdown() -> String {
        let m = result.method
        var md = "## Assumptions\n\n"
        md += "Seed \(m.seed), \(m.runs) Monte-Carlo runs × \(ReportFormat.users(m.sampleUsers)) simulated users, "
        md +=
            "\(scenario.horizon.days) days after a \(scenario.horizon.warmupDays)-day warm-up; written by \(result.tool.name) \(result.tool.version). "
        md += "The same scenario and seed give byte-identical reports, whatever the number of threads.\n\n"
        md += "**Method.** " + m.description + "\n\n"
        if let s = sensitivity {
            md +=
                "**Sensitivity.** Each uncertain assumption was moved alone to its p5 and its p95 (each fixed input to its low and high value) while the others stayed at their "
            md +=
                "central value; each setting is one run of \(ReportFormat.users(s.sampleUsers)) users of \(s.design) with the same random "
            md += "streams (common random numbers), scaled to \(ReportFormat.users(s.users)) users. "
            md +=
                s.noise.map { noise in
                    "The sample's own noise, measured by repeating every setting on each half of its users, is "
                        + "±\(ReportFormat.whole(noise)) \(s.measure) a month (\(NumberText.percent(s.noiseShare ?? 0, digits: 1))) on a swing; the headline names "
                        + "an assumption only when its swing is at least \(NumberText.plain(SensitivityResult.noiseMultiple)) times that.\n\n"
                } ?? "Swings of a few percent are within that sample's noise.\n\n"
        }
        if let c = scenario.calibration {
            md += "**Calibrated.** Values marked *measured* come from `analyze` (\(c.source)).\n\n"
        }
        md += "### Uncertain assumptions\n\n"
        md += "Drawn once per run: what we do not know. How users differ from each other is drawn per user inside each run.\n\n"
        md += uncertainTable().markdown
        md += "\n### Designs compared\n\n" + designsTable().markdown
        let all = settings()
        md += "\n<details>\n<summary>Every scenario value used (\(all.count))</summary>\n\n"
        var t = MarkdownTable(["Setting", "Value", "Kind"], alignments: [.left, .left, .left])
        for s in all {
            t.append([
                "`\(s.path)`", s.value,
                [s.uncertain ? "uncertain" : "", s.calibrated ? "measured" : ""]
                    .filter { !$0.isEmpty }.joined(separator: ", "),
            ])
        }
        md += t.markdown + "\n</details>\n"
        return md
    }

    func uncertainTable() -> MarkdownTable {
        var t = MarkdownTable(["Assumption", "Distribution", "Central", "p5–p95", "Source"])
        let calibrated = Set(scenario.calibration?.fields ?? [])
        for (path, d) in RunParameters.assumptions(of: scenario) where d.isUncertain {
            t.append([
                "`\(path)`", d.summary, NumberText.human(d.central),
                "\(NumberText.human(d.quantile(0.05)))–\(NumberText.human(d.quantile(0.95)))",
                calibrated.contains(path) ? "measured by analyze" : "scenario",
            ])
        }
        if t.rows.isEmpty { t.append(["(none: every assumption is fixed)", "–", "–", "–", "–"]) }
        return t
    }

    func designsTable() -> MarkdownTable {
        var t = MarkdownTable(["Design", "What it does", "From"], alignments: [.left, .left, .left])
        for d in scenario.availableDesigns where result.method.designs.contains(d.name) {
            t.append([d.name + (d.name == result.method.baseline ? " (baseline)" : ""), d.shownSummary, d.source])
        }
        return t
    }

    /// Every leaf of the scenario: distributions as one value, number lists joined, named list items by name.
    func settings() -> [Setting] {
        guard let tree = try? JSONValue.of(scenario) else { return [] }
        let distributions = Dictionary(uniqueKeysWithValues: RunParameters.assumptions(of: scenario).map { ($0.path, $0.distribution) })
        let calibrated = scenario.calibration?.fields ?? []
        // The Live Activity settings are used only when a design has a Live Activity.
        let activities = scenario.designs.contains { $0.liveActivity != nil }
        var out = [Setting]()
        func isCalibrated(_ path: String) -> Bool {
            calibrated.contains { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }
        }
        func add(_ path: String, _ value: String, uncertain: Bool = false) {
            out.append(Setting(path: path, value: value, uncertain: uncertain, calibrated: isCalibrated(path)))
        }
        func walk(_ node: JSONValue, _ path: String) {
            if !activities && path.hasPrefix("platform.liveActivity") { return }
            if let d = distributions[path] {
                add(path, d.summary, uncertain: d.isUncertain)
                return
            }
            switch node {
            case .object(let members):
                let named = members["name"]?.string != nil && path.hasSuffix("]")
                for key in members.keys.sorted()
                where !(path.isEmpty && (key == "calibration" || key == "schemaVersion")) && !(named && key == "name") {
                    walk(members[key]!, path.isEmpty ? key : path + "." + key)
                }
            case .array(let items):
                if items.allSatisfy({ $0.number != nil || $0.string != nil }) {
                    add(
                        path,
                        items.isEmpty
                            ? "(none)" : items.map { $0.number.map { NumberText.plain($0) } ?? $0.string! }.joined(separator: ", "))
                } else {
                    for (i, item) in items.enumerated() { walk(item, path + "[" + (item["name"]?.string ?? String(i)) + "]") }
                }
            case .number(let v): add(path, NumberText.plain(v))
            case .string(let s): add(path, s)
            case .bool(let b): add(path, b ? "true" : "false")
            case .null: add(path, "none")
            }
        }
        walk(tree, "")
        return out
    }
}
