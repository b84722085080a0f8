import Foundation
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSupport

/// A `lint` run as a SARIF 2.1.0 log, the subset GitHub code scanning reads: the tool and its
/// rules (id, name, descriptions, default level, help), and one result per finding with its rule,
/// level, message and location (`region.startLine` always present, as GitHub requires).
///
/// The bytes depend only on the report: keys are sorted, and nothing records a time or a machine.
package enum SARIFLog {
    /// The schema the log names in `$schema`.
    package static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// Where a reader of the log learns about the tool and its rules (the lint documentation).
    package static let defaultInformationURI = "https://github.com/widget-quota/widget-quota/blob/main/docs/lint.md"

    /// The SARIF JSON of `report`, ending with a newline.
    ///
    /// Findings name files relative to the linted folder; GitHub wants them relative to the
    /// repository root, so `folder` (the linted folder as given on the command line, run from the
    /// root: `MyApp`, `./MyApp/`, or `.`) is put in front of each path.
    package static func render(_ report: LintReport, folder: String = ".", informationURI: String = defaultInformationURI) throws
        -> String
    {
        let prefix = uriPrefix(folder)
        let rules = ChecklistRule.allCases
        let driver = Driver(
            name: "widget-quota", version: WidgetQuotaVersion.current, semanticVersion: WidgetQuotaVersion.current,
            informationUri: informationURI,
            rules: rules.map { rule in
                Descriptor(
                    id: rule.rawValue, name: pascalCase(rule.rawValue), shortDescription: Message(text: rule.title),
                    fullDescription: Message(text: rule.rationale),
                    defaultConfiguration: .init(level: level(rule.defaultSeverity)),
                    help: Help(text: rule.rationale, markdown: "**\(rule.title).** \(rule.rationale) See docs/lint.md."),
                    properties: .init(tags: ["widget", "quota"]))
            })
        let results = report.findings.map { f in
            Result(
                ruleId: f.rule.rawValue, ruleIndex: rules.firstIndex(of: f.rule)!, level: level(f.severity),
                message: Message(text: f.message + " Fix: " + f.fix + (f.cost.map { " Cost: " + $0 } ?? "")),
                locations: [location(f.location, prefix: prefix)])
        }
        let notifications = report.directiveProblems.map {
            Notification(level: "warning", message: Message(text: $0.message), locations: [location($0.location, prefix: prefix)])
        }
        let run = Run(
            tool: Tool(driver: driver), results: results,
            invocations: [Invocation(executionSuccessful: true, toolConfigurationNotifications: notifications)],
            columnKind: "unicodeCodePoints")
        return try JSONOutput.encode(Log(schema: schemaURI, version: "2.1.0", runs: [run]))
    }

    /// SARIF's level for a severity (`note`, `warning`, `error` are the same words).
    package static func level(_ severity: FindingSeverity) -> String { severity.rawValue }

    /// "policy-shorter-than-ttl" → "PolicyShorterThanTtl" (SARIF's rule `name`).
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `folder` as the start of a relative URI path: "" for the current folder, else ending in "/".
    package static func uriPrefix(_ folder: String) -> String {
        var parts = folder.split(separator: "/").filter { $0 != "." }
        if folder.hasPrefix("/") { parts.insert("", at: 0) }
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }

    static func location(_ l: Finding.Location, prefix: String) -> Location {
        let path = prefix + l.file
        let uri = path.addingPercentEncoding(withAllowedCharacters: uriAllowed) ?? path
        return Location(
            physicalLocation: .init(
                artifactLocation: .init(uri: uri, uriBaseId: "%SRCROOT%"),
                region: .init(startLine: max(1, l.line ?? 1), startColumn: l.line == nil ? nil : l.column.map { max(1, $0) })))
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
        var help: Help
        var properties: Properties
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
    }

    struct Location: Encodable {
        struct Physical: Encodable {
            var artifactLocation: Artifact
            var region: Region
        }
        struct Artifact: Encodable {
            var uri: String
            var uriBaseId: String
        }
        struct Region: Encodable {
            var startLine: Int
            var startColumn: Int?
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
