import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaSwiftSource

/// One `lint` run: read the tree, leave out the excluded files, run every rule, apply the
/// configuration and the inline directives, and read the design the code implements.
public struct LintRun: Sendable {
    /// Folders and files, as the user typed them.
    public var paths: [String]
    /// The configuration; nil: `.widget-quota-lint.json` in the first folder, when present.
    public var configuration: LintConfiguration?
    /// The rules run (every rule by default).
    package var rules: [any LintRule]

    /// A run of every checklist rule over `paths` (folders or files), with `configuration`.
    public init(paths: [String], configuration: LintConfiguration? = nil) {
        self.init(paths: paths, configuration: configuration, rules: LintRules.all)
    }

    package init(paths: [String], configuration: LintConfiguration? = nil, rules: [any LintRule]) {
        self.paths = paths
        self.configuration = configuration
        self.rules = rules
    }

    /// What a run produces: the report every output reads, the tree it read, and the design
    /// read from the code (nil when no code sends a request).
    package struct Outcome: Sendable {
        package var report: LintReport
        package var tree: AppSourceTree
        package var design: DesignInference?
    }

    /// Runs the rules. A missing path, or a tree with no Swift file, is an `unreadable` error (exit
    /// 66); a configuration or property list that cannot be read, a `malformed…` one (exit 65).
    package func run() throws -> Outcome {
        let folder = paths.first { AppSourceTree.isDirectory($0) }
        let configuration = try self.configuration ?? folder.flatMap { try LintConfiguration.find(in: $0) } ?? LintConfiguration()
        var tree = try AppSourceTree.load(paths: paths)
        tree.exclude(where: configuration.isExcluded)
        guard !tree.swiftFiles.isEmpty else {
            throw WidgetQuotaError.unreadable(
                file: paths.joined(separator: ", "), problem: "no Swift file to lint (after the configuration's exclude patterns)")
        }
        var findings = [Finding]()
        let source = LintSource(tree)
        for rule in rules { findings += rule.check(source) }
        let comments = tree.swiftFiles.flatMap { file in
            file.index.comments.map { (file: file.path, line: $0.location.line, text: $0.text) }
        }
        let (kept, suppressed) = configuration.apply(to: findings, comments: comments)
        let problems = LintDirective.problems(in: comments)
        let name = DesignReader.designName(forFolder: folder ?? "from-source")
        let design = DesignReader.read(source, name: folder == nil ? "from-source" : name)
        let summary = design.map {
            LintDesignSummary(name: $0.design.name, sentence: $0.sentence, assumedFields: $0.assumedFields)
        }
        var report = LintReport(
            findings: kept, files: Self.files(tree), suppressed: suppressed, design: summary, directiveProblems: problems,
            notes: tree.notes)
        report.spans = FindingSpans.spans(of: report.findings, in: tree)
        let reported = Set(findings.map(\.rule))
        report.nothingToCheck = ChecklistRule.allCases.filter { id in
            !reported.contains(id) && rules.contains { $0.rule == id }
                && !rules.contains { $0.rule == id && $0.hasSomethingToCheck(source) }
        }
        return Outcome(report: report, tree: tree, design: design)
    }

    /// Every file read with its role, sorted by path.
    static func files(_ tree: AppSourceTree) -> [LintReport.ReadFile] {
        let roleOfTarget = Dictionary(tree.targets.map { ($0.name, $0.role) }, uniquingKeysWith: { a, _ in a })
        var files = tree.swiftFiles.map { file -> LintReport.ReadFile in
            let roles = Set(file.targets.compactMap { roleOfTarget[$0] })
            let role: LintReport.FileRole
            if roles.contains(.app) && roles.contains(.widgetExtension) {
                role = .shared
            } else {
                switch file.role {
                case .app: role = .app
                case .widgetExtension: role = .widget
                case .unknown: role = .unassigned
                }
            }
            return LintReport.ReadFile(path: file.path, role: role)
        }
        for path in tree.propertyLists.keys {
            files.append(LintReport.ReadFile(path: path, role: path.hasSuffix(".entitlements") ? .entitlements : .propertyList))
        }
        files += tree.projects.map { LintReport.ReadFile(path: $0.path, role: .project) }
        return files.sorted { $0.path < $1.path }
    }
}

extension AppSourceTree {
    /// Drops the files whose path `isExcluded`, from the Swift files, the property lists and
    /// the targets.
    mutating func exclude(where isExcluded: (String) -> Bool) {
        swiftFiles.removeAll { isExcluded($0.path) }
        for path in propertyLists.keys where isExcluded(path) { propertyLists[path] = nil }
        for k in targets.indices {
            targets[k].swiftFiles.removeAll(where: isExcluded)
            if let p = targets[k].infoPlistPath, isExcluded(p) {
                targets[k].infoPlistPath = nil
                targets[k].infoPlist = nil
            }
            if let p = targets[k].entitlementsPath, isExcluded(p) {
                targets[k].entitlementsPath = nil
                targets[k].entitlements = nil
            }
        }
    }
}
