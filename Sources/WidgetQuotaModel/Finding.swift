import Foundation

/// One breach of a checklist rule, found in an app's source by `lint` or in its logs by `analyze`.
public struct Finding: Sendable, Equatable, Codable {
    /// Where a finding is: a file and, when known, a line and column (1-based).
    public struct Location: Sendable, Equatable, Hashable, Codable, Comparable {
        /// The file as the user named it (relative to the folder they pointed at).
        public var file: String
        /// The line (1-based; nil: the file as a whole).
        public var line: Int?
        /// The column (1-based, in Unicode scalars).
        public var column: Int?

        package init(file: String, line: Int? = nil, column: Int? = nil) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// `file:line:column`, as compilers print it.
        public var description: String {
            [file, line.map(String.init), line == nil ? nil : column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        }

        public static func < (a: Self, b: Self) -> Bool {
            (a.file, a.line ?? 0, a.column ?? 0) < (b.file, b.line ?? 0, b.column ?? 0)
        }
    }

    /// The checklist rule broken (its id is `rule` in every output).
    public var rule: ChecklistRule
    /// How much it matters.
    public var severity: FindingSeverity
    /// Where it is.
    public var location: Location
    /// One line saying what is wrong (never a secret: keys are redacted).
    public var message: String
    /// One line saying how to fix it.
    public var fix: String
    /// What not fixing it costs, where the simulation can say it (e.g. requests per user a month).
    public var cost: String?

    package init(
        rule: ChecklistRule, severity: FindingSeverity, location: Location, message: String, fix: String,
        cost: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.location = location
        self.message = message
        self.fix = fix
        self.cost = cost
    }

    /// Findings in a stable order: by file, line, column, then rule.
    package static func sorted(_ findings: [Finding]) -> [Finding] {
        findings.sorted { ($0.location, $0.rule, $0.message) < ($1.location, $1.rule, $1.message) }
    }
}
