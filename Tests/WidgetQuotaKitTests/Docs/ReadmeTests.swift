import Foundation
import Testing
import WidgetQuotaModel

/// The README and the pages of `docs/` document every scenario field, preset and command, so the
/// docs cannot drift from the model; the README stays short and every link leads somewhere.
@Suite struct ReadmeTests {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A documentation file's text, by its path from the package root ("" when it is missing).
    static func page(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let readme = page("README.md")
    /// Where the scenario's parameter table lives.
    static let scenarioPage = page("docs/scenario.md")
    /// Where the log formats and recognisers are described.
    static let logsPage = page("docs/logs.md")

    /// The README must fit on a screen or three; the manual lives in `docs/`.
    static let readmeByteLimit = 12_288

    /// Every Markdown page a reader reaches from the README: the README and `docs/*.md`.
    static func markdownPages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// Dotted paths of every field of the default scenario (arrays are documented as a whole).
    static func fieldPaths() throws -> [String] {
        let data = Data(ScenarioLoader.encode(Scenario()).utf8)
        let tree = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var paths = [String]()
        func walk(_ object: [String: Any], _ prefix: String) {
            for (key, value) in object {
                let path = prefix.isEmpty ? key : prefix + "." + key
                if let child = value as? [String: Any], child["distribution"] == nil {
                    walk(child, path)
                } else {
                    paths.append(path)
                }
            }
        }
        walk(tree, "")
        return paths.filter { $0 != "schemaVersion" }.sorted()
    }

    /// The targets of inline Markdown links `[text](target)` outside code, without their `#anchor`.
    static func relativeLinks(in text: String) -> [String] {
        var links = [String]()
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            // Inline code may hold brackets and parentheses that are not links.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let close = rest.range(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                let target = String(after[..<end]).split(separator: " ").first.map(String.init) ?? ""
                rest = after[after.index(after: end)...]
                if target.isEmpty || target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
                links.append(String(target.split(separator: "#", maxSplits: 1).first ?? ""))
            }
        }
        return links
    }

    @Test("Every scenario field is in the parameter table of docs/scenario.md")
    func everyScenarioFieldIsDocumented() throws {
        #expect(!Self.scenarioPage.isEmpty, "docs/scenario.md not found")
        for path in try Self.fieldPaths() {
            let last = path.split(separator: ".").last.map(String.init) ?? path
            let documented =
                Self.scenarioPage.contains("`\(path)`") || Self.scenarioPage.contains("`.\(last)`")
                || Self.scenarioPage.contains("/ `\(last)`")
            #expect(documented, "docs/scenario.md does not document \(path)")
        }
    }

    @Test("Every preset design is in the README's design table")
    func everyPresetIsDocumented() {
        #expect(!Self.readme.isEmpty, "README.md not found")
        for design in DesignPresets.all {
            #expect(Self.readme.contains("`\(design.name)`"), "README does not list design \(design.name)")
        }
    }

    @Test("CI runs the README's test command")
    func ciRunsTheReadmeTestCommand() throws {
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let command = try #require(Self.quickStartCommands.last)
        #expect(command.hasPrefix("swift test"))
        // The command as written, its output perhaps piped on (to check it for warnings).
        #expect(ci.split(separator: "\n").contains { $0 == command || $0.hasPrefix(command + " ") }, "\(command)")
    }

    /// The commands in the README's quick start, in order.
    static var quickStartCommands: [String] {
        let quickStart =
            readme.components(separatedBy: "## Quick start").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let fence = quickStart.components(separatedBy: "```").dropFirst().first ?? ""
        return fence.split(separator: "\n").dropFirst()  // the fence's language tag
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }  // comment lines
            .map { $0.split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            .filter { !$0.isEmpty }
    }

    @Test("The README's quick start is the two commands")
    func quickStartIsTheTwoCommands() {
        let commands = Self.quickStartCommands
        #expect(
            commands == [
                "swift run -c release widget-quota report", "swift test -c release --disable-testable-imports --disable-xctest -q",
            ],
            "\(commands)")
    }

    @Test("The README's command table lists every command")
    func everyCommandIsInTheReadme() {
        let table =
            Self.readme.components(separatedBy: "## Commands").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        for name in ["report", "simulate", "diff", "scenario", "designs", "analyze", "trace", "sweep", "bench"] {
            #expect(table.contains("| `\(name)` |"), "README's command table does not list \(name)")
        }
    }

    @Test("docs/logs.md names a recogniser in every row of What is recognised")
    func recognisedLinesAreTabled() {
        let section =
            Self.logsPage.components(separatedBy: "## What is recognised").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst(2)  // header and rule
        #expect(rows.count >= 10, "docs/logs.md: What is recognised has \(rows.count) rows")
        for row in rows {
            let first = row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            #expect(first.count > 2 && first.hasPrefix("`") && first.hasSuffix("`"), "docs/logs.md: \(row)")
        }
    }

    @Test("README.md is at most 12,288 bytes")
    func readmeFitsOnAFewScreens() throws {
        let bytes = try Data(contentsOf: Self.root.appendingPathComponent("README.md")).count
        #expect(bytes <= Self.readmeByteLimit, "README.md is \(bytes) bytes; move detail to docs/")
    }

    @Test("Every relative link in README.md and docs/*.md leads to a file")
    func relativeLinksResolve() throws {
        let pages = try Self.markdownPages() + ["CHANGELOG.md", "SampleLogs/README.md"]
        #expect(pages.count > 3, "no docs/*.md found")
        for page in pages {
            let folder = Self.root.appendingPathComponent(page).deletingLastPathComponent()
            for link in Self.relativeLinks(in: Self.page(page)) {
                let target = folder.appendingPathComponent(link.removingPercentEncoding ?? link).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page) links to \(link), which does not exist")
            }
        }
    }

    @Test("User-facing docs name sources in words, not by file number")
    func sourcesAreNamedInWords() throws {
        let pages = try Self.markdownPages() + ["CHANGELOG.md", "SampleLogs/README.md"]
        for page in pages {
            let text = Self.page(page).lowercased()
            // The workspace folder the tool is developed in, spelled in parts so this file does not name it.
            let workspace = "/" + "work" + "/"
            let found = ["seed 00", "seeds 00", workspace].filter { text.contains($0) }
            #expect(found.isEmpty, "\(page) says \(found)")
        }
    }
}
