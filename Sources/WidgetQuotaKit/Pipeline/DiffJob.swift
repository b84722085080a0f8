import Foundation
import WidgetQuotaGates
import WidgetQuotaReporting
import WidgetQuotaSupport

/// The comparison behind `diff`: two JSON reports, the thresholds checked against HEAD, the
/// change gates (`change(…)`, `tierChange(…)`) checked against both, and the Markdown for a pull
/// request; or two log analyses (`analyze --format json`) in the same layout.
public struct DiffJob: Sendable {
    /// The report compared against: a `report.json`, `metrics.csv` or folder holding them.
    public var basePath: String
    /// The report compared.
    public var headPath: String
    /// Thresholds checked on HEAD.
    public var thresholds: [Threshold]
    /// The comment's length limit (GitHub's by default).
    public var limit: Int
    /// How the comparison names BASE (default: its file name, or its path for a `report.json`).
    public var baseLabel: String?
    /// How the comparison names HEAD (the same default).
    public var headLabel: String?
    /// Lint's JSON of the head branch run with the base branch's baseline: its findings are
    /// listed as the code lines behind the change (nil: no such section).
    package var newFindingsPath: String?

    /// The comment's length limit unless told otherwise: GitHub's, in UTF-16 code units.
    public static let defaultLimit = ReportDiff.commentLimit

    /// A comparison of `base` with `head`, checking `thresholds`, its comment at most `limit` long.
    public init(base: String, head: String, thresholds: [Threshold] = [], limit: Int = DiffJob.defaultLimit) {
        self.basePath = base
        self.headPath = head
        self.thresholds = thresholds
        self.limit = limit
    }

    /// What `run` gives: the Markdown, the thresholds on HEAD and the change gates.
    public struct Output: Sendable {
        /// The comparison, as Markdown for a pull-request comment.
        public var markdown: String
        /// Each threshold checked on HEAD.
        public var thresholds: [ThresholdOutcome]
        /// Each gate on the change from BASE to HEAD.
        public var changeGates: [ChangeOutcome]
        /// The comparison as JSON (`diff --format json`); nil for two log analyses.
        package var json: String? = nil

        /// True when a `--fail-if` threshold or change gate failed.
        public var failsRun: Bool { thresholds.contains(where: \.failsRun) || changeGates.contains(where: \.failsRun) }
    }

    /// The Markdown comparison, the threshold outcomes on HEAD and the change gates.
    public func run() throws -> Output {
        let base = try Self.loadReport(basePath)
        let head = try Self.loadReport(headPath)
        switch (LogDiff.isAnalysis(base), LogDiff.isAnalysis(head)) {
        case (true, true):
            if let first = thresholds.first {
                throw WidgetQuotaError.badExpression(
                    expression: first.expression.text,
                    problem: "thresholds and change gates check simulation reports; \(basePath) and \(headPath) are log analyses")
            }
            let markdown = LogDiff(base: base, head: head).markdown(
                base: baseLabel ?? Self.displayName(basePath), head: headLabel ?? Self.displayName(headPath), limit: limit)
            return Output(markdown: markdown, thresholds: [], changeGates: [])
        case (true, false), (false, true):
            let analysis = LogDiff.isAnalysis(base) ? basePath : headPath
            throw WidgetQuotaError.malformedInput(
                file: analysis, line: nil,
                problem: "a log analysis compared with a simulation report; compare two of a kind (two report.json or two analysis.json)")
        case (false, false):
            break
        }
        let outcomes = try ThresholdEvaluator.evaluate(thresholds.filter { !$0.expression.comparesReports }, on: MetricTable(json: head))
        let gates = try ChangeEvaluator.evaluate(thresholds.filter(\.expression.comparesReports), base: base, head: head)
        let newFindings = try newFindingsPath.map { path in
            try NewFindingsSection(
                lintJSON: JSONValue.parse(InputFile.contents(of: path), file: InputFile.name(path)), file: InputFile.name(path))
        }
        let diff = ReportDiff(base: base, head: head)
        let (baseName, headName) = (baseLabel ?? Self.displayName(basePath), headLabel ?? Self.displayName(headPath))
        let markdown = diff.markdown(
            base: baseName, head: headName, thresholds: outcomes, changeGates: gates, newFindings: newFindings, limit: limit)
        let json = try DiffJSON.render(
            diff, base: baseName, head: headName, thresholds: outcomes, changeGates: gates, newFindings: newFindings)
        return Output(markdown: markdown, thresholds: outcomes, changeGates: gates, json: json)
    }

    /// A report's name in the comparison: its file name, or its path when it is a `report.json` or
    /// an `analysis.json` (whose folder tells the two apart).
    static func displayName(_ path: String) -> String {
        guard path != InputFile.standardInput else { return InputFile.name(path) }
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name == "report.json" || name == "analysis.json" ? path : name
    }

    /// Reads a JSON report or log analysis: a missing file is exit 66, a file that is neither exit 65.
    package static func loadReport(_ source: String) throws -> JSONValue {
        let data = try InputFile.contents(of: source)
        let path = InputFile.name(source)
        guard !data.isEmpty else { throw WidgetQuotaError.emptyInput(file: path) }
        let json = try JSONValue.parse(data, file: path)
        guard json["results"]?.array != nil || LogDiff.isAnalysis(json) else {
            throw WidgetQuotaError.malformedInput(
                file: path, line: nil,
                problem:
                    "not a widget-quota JSON report (no \"results\") nor a log analysis (no \"perDevice\"); "
                    + "write one with `simulate --format json` or `analyze --format json`")
        }
        try checkSchemaVersion(json, path)
        return json
    }

    /// The `schemaVersion`s `diff` reads (docs/schema/).
    package static let readableSchemaVersions = [1]

    /// A report written by another version of the tool, or with no version, is refused (exit 65)
    /// rather than compared key by key as if it were this one's.
    static func checkSchemaVersion(_ json: JSONValue, _ path: String) throws {
        let readable = readableSchemaVersions.map(String.init).joined(separator: ", ")
        guard let value = json["schemaVersion"] else {
            throw WidgetQuotaError.malformedInput(
                file: path, line: nil,
                problem:
                    "no \"schemaVersion\"; diff reads schemaVersion \(readable), which widget-quota \(WidgetQuotaVersion.current) writes")
        }
        guard let version = value.number, readableSchemaVersions.contains(where: { Double($0) == version }) else {
            throw WidgetQuotaError.malformedInput(
                file: path, line: nil,
                problem:
                    "schemaVersion \(value.number.map { NumberText.plain($0) } ?? value.string.map { "\"\($0)\" (text, not a number)" } ?? "that is not a number") is not one diff reads (it reads \(readable)); "
                    + "write both reports with the same widget-quota, or use the version that wrote them")
        }
    }
}
