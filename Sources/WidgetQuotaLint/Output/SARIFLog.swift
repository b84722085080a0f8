import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// A `lint` run as a SARIF 2.1.0 log, the subset GitHub code scanning reads: the tool and its
/// rules (id, name, descriptions, default level, help and `helpUri`), and one result per finding
/// with its rule, level, message, location (start and end) and a `partialFingerprints` entry that
/// stays the same when unrelated lines are edited.
///
/// The bytes depend only on the report and the paths: keys are sorted, and nothing records a
/// time or a machine.
package enum SARIFLog {
    /// The schema the log names in `$schema`.
    package static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// Where a reader of the log learns about the tool and its rules (the lint documentation).
    package static let defaultInformationURI = "https://github.com/widget-quota/widget-quota/blob/main/docs/lint.md"
    /// The key of the fingerprint each result carries (a version in it, should its recipe change).
    package static let fingerprintKey = "widgetQuotaFinding/v1"

    /// The SARIF JSON of `report`, ending with a newline. URIs are relative to `paths.root` (the
    /// repository root), with `uriBaseId` `%SRCROOT%`; a file outside it gets an absolute `file:` URI.
    /// `fingerprints`, one per finding, are the whole run's when a baseline filtered `report`.
    package static func render(
        _ report: LintReport, paths: RepositoryPath, informationURI: String = defaultInformationURI, fingerprints: [String]? = nil
    ) throws -> String {
        let rules = ChecklistRule.allCases
        let driver = Driver(
            name: "widget-quota", version: WidgetQuotaVersion.current, semanticVersion: WidgetQuotaVersion.current,
            informationUri: informationURI,
            rules: rules.map { rule in
                Descriptor(
                    id: rule.rawValue, name: pascalCase(rule.rawValue), shortDescription: Message(text: rule.title),
                    fullDescription: Message(text: rule.rationale),
                    defaultConfiguration: .init(level: level(rule.defaultSeverity)),
                    helpUri: informationURI + "#" + rule.rawValue,
                    help: Help(text: rule.rationale, markdown: "**\(rule.title).** \(rule.rationale)"),
                    properties: .init(tags: ["widget", "quota"]))
            })
        let fingerprints = fingerprints ?? FindingFingerprint.all(report, paths: paths)
        let results = zip(report.findings, fingerprints).map { f, fingerprint in
            Result(
                ruleId: f.rule.rawValue, ruleIndex: rules.firstIndex(of: f.rule)!, level: level(f.severity),
                message: Message(text: messageText(f)),
                locations: [location(f.location, span: report.spans[f.location], paths: paths)],
                partialFingerprints: [fingerprintKey: fingerprint])
        }
        let notifications = report.directiveProblems.map {
            Notification(
                level: "warning", message: Message(text: $0.message), locations: [location($0.location, span: nil, paths: paths)])
        }
        let run = Run(
            tool: Tool(driver: driver), results: results,
            invocations: [Invocation(executionSuccessful: true, toolConfigurationNotifications: notifications)],
            columnKind: "unicodeCodePoints")
        return try JSONOutput.encode(Log(schema: schemaURI, version: "2.1.0", runs: [run]))
    }

    /// The message, then the fix and the cost, each a sentence of its own: the first sentence is
    /// what code scanning shows as the alert's title.
    static func messageText(_ f: Finding) -> String { FindingText.line(f) }

    /// SARIF's level for a severity (`note`, `warning`, `error` are the same words).
    package static func level(_ severity: FindingSeverity) -> String { severity.rawValue }

    /// "policy-shorter-than-ttl" → "PolicyShorterThanTtl" (SARIF's rule `name`).
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func location(_ l: Finding.Location, span: LintReport.Span?, paths: RepositoryPath) -> Location {
        let artifact: Location.Artifact
        if let relative = paths.relative(l.file) {
            artifact = .init(uri: relative.addingPercentEncoding(withAllowedCharacters: uriAllowed) ?? relative, uriBaseId: "%SRCROOT%")
        } else {
            let absolute = paths.absolute(l.file)
            artifact = .init(
                uri: "file://" + (absolute.addingPercentEncoding(withAllowedCharacters: uriAllowed) ?? absolute), uriBaseId: nil)
        }
        let startColumn = l.line == nil ? nil : l.column.map { max(1, $0) }
        return Location(
            physicalLocation: .init(
                artifactLocation: artifact,
                region: .init(
                    startLine: max(1, l.line ?? 1), startColumn: startColumn, endLine: span?.endLine,
                    endColumn: span.map { max($0.endColumn, (startColumn ?? 1) + 1) })))
    }

    /// Characters a relative URI path keeps as they are.
    static let uriAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~/!$&'()*+,;=:@")
        return set.intersection(CharacterSet(charactersIn: Unicode.Scalar(UInt8(0x21))...Unicode.Scalar(UInt8(0x7E))))
    }()

    struct Log: Encodable {
        var schema: String
        var version: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var invocations: [Invocation]
        var columnKind: String
    }

    struct Tool: Encodable { var driver: Driver }

    struct Driver: Encodable {
        var name: String
        var version: String
        var semanticVersion: String
        var informationUri: String
        var rules: [Descriptor]
    }

    struct Message: Encodable { var text: String }

    struct Help: Encodable {
        var text: String
        var markdown: String
    }

    struct Descriptor: Encodable {
        struct Configuration: Encodable { var level: String }
        struct Properties: Encodable { var tags: [String] }
        var id: String
        var name: String
        var shortDescription: Message
        var fullDescription: Message
        var defaultConfiguration: Configuration
        var helpUri: String
        var help: Help
        var properties: Properties
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var partialFingerprints: [String: String]
    }

    struct Location: Encodable {
        struct Physical: Encodable {
            var artifactLocation: Artifact
            var region: Region
        }
        struct Artifact: Encodable {
            var uri: String
            var uriBaseId: String?
        }
        struct Region: Encodable {
            var startLine: Int
            var startColumn: Int?
            var endLine: Int?
            var endColumn: Int?
        }
        var physicalLocation: Physical
    }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var toolConfigurationNotifications: [Notification]
    }

    struct Notification: Encodable {
        var level: String
        var message: Message
        var locations: [Location]
    }
}
