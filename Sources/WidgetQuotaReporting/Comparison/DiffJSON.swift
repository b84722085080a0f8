import Foundation
import WidgetQuotaGates
import WidgetQuotaSupport

/// `diff --format json`: the comparison for machines. Its keys are a public contract
/// (`schemaVersion` 1; keys are added, never renamed): `base` and `head` (label and sampling),
/// `commonRandomNumbers`, `rows[]` (every design × user count, each figure as base → head with its
/// change and movement, and the tier), `changedAssumptions[]`, `thresholds[]`, `changeGates[]`
/// and `newFindings` (when `--new-findings` was given).
package enum DiffJSON {
    /// The version of this JSON shape.
    package static let schemaVersion = 1

    /// Pretty, key-sorted JSON of the comparison, ending with a newline.
    package static func render(
        _ diff: ReportDiff, base: String, head: String, thresholds: [ThresholdOutcome], changeGates: [ChangeOutcome],
        newFindings: NewFindingsSection?
    ) throws -> String {
        try JSONOutput.encode(
            Document(
                schemaVersion: schemaVersion,
                base: Side(label: base, sampling: diff.base), head: Side(label: head, sampling: diff.head),
                commonRandomNumbers: diff.commonRandomNumbers,
                changedRows: diff.rows.filter(\.isChanged).count,
                rows: diff.rows.map(Row.init),
                changedAssumptions: diff.changedAssumptions.map {
                    Assumption(design: $0.design, path: $0.path, old: $0.old, new: $0.new)
                },
                thresholds: thresholds, changeGates: changeGates.map(Gate.init), newFindings: newFindings.map(Findings.init)))
    }

    struct Document: Encodable {
        var schemaVersion: Int
        var base: Side
        var head: Side
        /// True when both reports drew the same random numbers: only the change moves a figure.
        var commonRandomNumbers: Bool
        /// Rows whose figures or tier moved beyond the Monte-Carlo noise.
        var changedRows: Int
        var rows: [Row]
        var changedAssumptions: [Assumption]
        var thresholds: [ThresholdOutcome]
        var changeGates: [Gate]
        var newFindings: Findings?

        enum CodingKeys: String, CodingKey {
            case schemaVersion, base, head, commonRandomNumbers, changedRows, rows, changedAssumptions, thresholds
            case changeGates, newFindings
        }

        /// Every key is always present; `newFindings` is null without `--new-findings`.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(schemaVersion, forKey: .schemaVersion)
            try c.encode(base, forKey: .base)
            try c.encode(head, forKey: .head)
            try c.encode(commonRandomNumbers, forKey: .commonRandomNumbers)
            try c.encode(changedRows, forKey: .changedRows)
            try c.encode(rows, forKey: .rows)
            try c.encode(changedAssumptions, forKey: .changedAssumptions)
            try c.encode(thresholds, forKey: .thresholds)
            try c.encode(changeGates, forKey: .changeGates)
            try c.encode(newFindings, forKey: .newFindings)
        }
    }

    struct Side: Encodable {
        var label: String
        var seed: String?
        var runs: Int?
        var sampleUsers: Int?

        init(label: String, sampling: ReportDiff.Sampling) {
            self.label = label
            seed = sampling.seed
            runs = sampling.runs
            sampleUsers = sampling.sampleUsers
        }
    }

    struct Row: Encodable {
        var design: String
        var users: Int
        /// The row's movement: `worse`, `better`, `withinNoise`, `unchanged`, `added` or `removed`.
        var movement: String
        var baseTier: String?
        var headTier: String?
        var tierMovement: String
        var figures: [Figure]

        init(_ row: ReportDiff.Row) {
            design = row.design
            users = row.users
            movement = row.movement.rawValue
            baseTier = row.baseTier
            headTier = row.headTier
            tierMovement = row.tierMovement.rawValue
            figures = row.figures.map(Figure.init)
        }
    }

    struct Figure: Encodable {
        /// The path in a result row of `report.json` (`totalRequestsPerMonth`, `cost.perMonth`, …).
        var metric: String
        var unit: String
        /// Means across runs; null where a report lacks the figure.
        var base: Double?
        var head: Double?
        var change: Double?
        /// The change relative to base (null when base is 0 or absent).
        var relativeChange: Double?
        var movement: String

        init(_ f: ReportDiff.Figure) {
            metric = f.metric.path
            unit = f.metric.unit.rawValue
            base = f.base?.mean
            head = f.head?.mean
            change = f.change
            relativeChange = f.share
            movement = f.movement.rawValue
        }

        enum CodingKeys: String, CodingKey { case metric, unit, base, head, change, relativeChange, movement }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(metric, forKey: .metric)
            try c.encode(unit, forKey: .unit)
            try c.encode(base, forKey: .base)
            try c.encode(head, forKey: .head)
            try c.encode(change, forKey: .change)
            try c.encode(relativeChange, forKey: .relativeChange)
            try c.encode(movement, forKey: .movement)
        }
    }

    /// A change gate's outcome with whether it passed.
    struct Gate: Encodable {
        var outcome: ChangeOutcome

        enum CodingKeys: String, CodingKey { case passed }

        func encode(to encoder: Encoder) throws {
            try outcome.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(outcome.passed, forKey: .passed)
        }
    }

    struct Assumption: Encodable {
        var design: String?
        var path: String
        var old: String?
        var new: String?
    }

    struct Findings: Encodable {
        /// Lint findings the head branch adds.
        var findings: [Finding]
        /// Findings the base branch had too, left out.
        var known: Int

        init(_ section: NewFindingsSection) {
            findings = section.findings.map {
                Finding(rule: $0.rule, severity: $0.severity, file: $0.file, line: $0.line, message: $0.message, cost: $0.cost)
            }
            known = section.known
        }
    }

    struct Finding: Encodable {
        var rule: String
        var severity: String
        var file: String
        var line: Int?
        var message: String
        var cost: String?
    }
}
