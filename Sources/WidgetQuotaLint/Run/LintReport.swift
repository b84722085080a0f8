import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// What `lint` found in an app's source: the findings that survived the configuration and the
/// inline directives, the files it read and in which role, and the design the code implements.
///
/// Every renderer (Markdown, JSON, SARIF) and the exit status read this one value.
public struct LintReport: Sendable, Equatable {
    /// The rules that found nothing to look at in the tree (no background task, no timeline
    /// provider), in catalogue order: neither passed nor broken.
    public var nothingToCheck: [ChecklistRule] = []

    /// What a file read by `lint` is to the app.
    public enum FileRole: String, CaseIterable, Sendable, Codable, Comparable {
        /// A Swift file compiled into the app target only.
        case app
        /// A Swift file compiled into the widget extension only.
        case widget
        /// A Swift file compiled into both targets.
        case shared
        /// A Swift file whose target could not be told.
        case unassigned
        /// An `Info.plist` or other property list.
        case propertyList = "property-list"
        /// An `.entitlements` file.
        case entitlements
        /// A `project.pbxproj`.
        case project

        /// The role in words, plural when `count` is not 1 ("3 widget extension files").
        package func phrase(_ count: Int) -> String {
            let files = count == 1 ? "file" : "files"
            switch self {
            case .app: return "\(count) app \(files)"
            case .widget: return "\(count) widget extension \(files)"
            case .shared: return "\(count) shared \(files)"
            case .unassigned: return "\(count) \(files) of no known target"
            case .propertyList: return "\(count) property \(count == 1 ? "list" : "lists")"
            case .entitlements: return "\(count) entitlements \(files)"
            case .project: return "\(count) project \(files)"
            }
        }

        public static func < (a: Self, b: Self) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// One file `lint` read, as the user named it (relative to the folder they pointed at).
    public struct ReadFile: Sendable, Equatable, Hashable, Codable {
        /// The path.
        public var path: String
        /// What the file is to the app: a Swift file of the app, the widget, both or neither, or a
        /// property list, entitlements or project file.
        public var role: FileRole

        package init(path: String, role: FileRole) {
            self.path = path
            self.role = role
        }
    }

    /// Where a finding's code ends, and its line's text with spacing and comments normalised
    /// (code scanning's fingerprint of the finding).
    public struct Span: Sendable, Equatable, Hashable {
        /// The finding's line, spacing and comments normalised.
        public var text: String
        /// The line the finding's code ends on.
        public var endLine: Int
        /// The column after the finding's last character, as SARIF counts it.
        public var endColumn: Int

        package init(text: String, endLine: Int, endColumn: Int) {
            self.text = text
            self.endLine = endLine
            self.endColumn = endColumn
        }
    }

    /// Findings in the stable order of `Finding.sorted`.
    public var findings: [Finding]
    /// Each finding's span, by its location, when the line could be read.
    public var spans: [Finding.Location: Span] = [:]
    /// The files read, in the order given.
    public var files: [ReadFile]
    /// Findings dropped by the configuration's `disable` list or by inline directives.
    public var suppressed: Int
    /// Findings dropped because the baseline given to the run holds them (`lint --baseline`).
    package var baselined = 0
    /// The design the code implements, when it could be read.
    public var design: LintDesignSummary?
    /// Inline directives that name no rule (a typo in a comment): reported, never fatal.
    public var directiveProblems: [LintDirectiveProblem]
    /// What the run says of its input: files skipped and why (unreadable, not UTF-8, a binary
    /// property list, a second project).
    public var notes: [String]

    package init(
        findings: [Finding], files: [ReadFile], suppressed: Int = 0, design: LintDesignSummary? = nil,
        directiveProblems: [LintDirective.Problem] = [], notes: [String] = []
    ) {
        self.notes = notes
        self.findings = Finding.sorted(findings)
        self.files = files
        self.suppressed = suppressed
        self.design = design
        self.directiveProblems = directiveProblems.sorted { $0.location < $1.location }
    }

    /// How many findings have `severity`.
    package func count(_ severity: FindingSeverity) -> Int {
        findings.lazy.filter { $0.severity == severity }.count
    }

    /// How many files have `role`.
    package func count(_ role: FileRole) -> Int {
        files.lazy.filter { $0.role == role }.count
    }

    /// The rules with no finding that had something to check, in catalogue order.
    public var rulesPassed: [ChecklistRule] {
        let found = Set(findings.map(\.rule))
        return ChecklistRule.allCases.filter { !found.contains($0) && !nothingToCheck.contains($0) }
    }

    /// The rules with at least one finding, in catalogue order.
    public var rulesBroken: [ChecklistRule] {
        let found = Set(findings.map(\.rule))
        return ChecklistRule.allCases.filter { found.contains($0) }
    }

    /// The first line of every output: "2 errors, 5 warnings in 14 files: the widget calls the
    /// API itself", or "no findings in 9 files" (the design's sentence follows the colon when
    /// known); findings a baseline held are counted after the head: "1 error (4 more in the baseline)".
    public var verdict: String {
        let counts = FindingSeverity.allCases.reversed().compactMap { severity -> String? in
            let n = count(severity)
            return n == 0 ? nil : "\(n) \(severity.rawValue)\(n == 1 ? "" : "s")"
        }
        var head = counts.isEmpty ? "no findings" : counts.joined(separator: ", ")
        if baselined > 0 { head += " (\(baselined) \(counts.isEmpty ? "" : "more ")in the baseline)" }
        let tail = design.map { ": " + $0.sentence } ?? ""
        return "\(head) in \(files.count) file\(files.count == 1 ? "" : "s")\(tail)"
    }

    /// The exit status `--fail-on` asks for: `.thresholdFailed` (1) when a finding is at or above
    /// `failOn`, else `.success`.
    package func exitCode(failOn: LintFailOn) -> ExitCode {
        failOn.fails(findings) ? .thresholdFailed : .success
    }
}

/// The lowest severity that makes `lint` exit with status 1 (`--fail-on`), or `never`.
package enum LintFailOn: String, CaseIterable, Sendable {
    case error, warning, note, never

    /// The severity at or above which a finding fails the run, or nil for `never`.
    package var threshold: FindingSeverity? {
        switch self {
        case .error: return .error
        case .warning: return .warning
        case .note: return .note
        case .never: return nil
        }
    }

    /// Whether any of `findings` is at or above the threshold.
    package func fails(_ findings: [Finding]) -> Bool {
        guard let threshold else { return false }
        return findings.contains { $0.severity >= threshold }
    }
}

/// The design an app's code implements, in the few words every output shows. Filled by the design
/// reader; the projection figures come from simulating it next to the cache preset.
public struct LintDesignSummary: Sendable, Equatable, Codable {
    /// The design's name in the emitted scenario ("read-from-code").
    public var name: String
    /// The design in one sentence, lower-case first ("the widget calls the API itself").
    public var sentence: String
    /// Projected API requests per user a month for this design, when simulated.
    public var requestsPerUserMonth: Double?
    /// The same figure for the cache design, for comparison.
    public var baselineRequestsPerUserMonth: Double?
    /// Scenario fields the code did not show, which keep the preset's value.
    public var assumedFields: [String]
    /// How the projection figures were simulated ("200 simulated users, 4 runs, seed 2026, the
    /// built-in scenario"), nil when not simulated.
    public var projection: String?

    package init(
        name: String, sentence: String, requestsPerUserMonth: Double? = nil, baselineRequestsPerUserMonth: Double? = nil,
        assumedFields: [String] = [], projection: String? = nil
    ) {
        self.name = name
        self.sentence = sentence
        self.requestsPerUserMonth = requestsPerUserMonth
        self.baselineRequestsPerUserMonth = baselineRequestsPerUserMonth
        self.assumedFields = assumedFields
        self.projection = projection
    }
}
