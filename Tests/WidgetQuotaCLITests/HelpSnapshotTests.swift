import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Each command's `--help`, and the top-level usage, as a person reads them: held to the files in
/// `Tests/WidgetQuotaCLITests/Snapshots/`, so a change to an option, its help or a default shows in
/// review. After a deliberate change, rewrite the files with
/// `WIDGET_QUOTA_UPDATE_SNAPSHOTS=1 swift test -c release --disable-testable-imports --filter HelpSnapshotTests`.
@Suite("Help snapshots")
struct HelpSnapshotTests {
    static let folder = "Tests/WidgetQuotaCLITests/Snapshots"
    static let updating = ProcessInfo.processInfo.environment["WIDGET_QUOTA_UPDATE_SNAPSHOTS"] == "1"

    /// Every snapshot: the file's name and the text the command line prints today.
    static var snapshots: [(file: String, text: String)] {
        [("widget-quota.txt", TestSupport.cli(["--help"]).out)]
            + CLI.commands.map { ("\($0.spec.name).txt", TestSupport.cli([$0.spec.name, "--help"]).out) }
    }

    @Test("each command's --help is its snapshot, byte for byte", arguments: snapshots.map(\.file))
    func helpMatchesItsSnapshot(file: String) throws {
        let text = try #require(Self.snapshots.first { $0.file == file }).text
        #expect(text.hasPrefix("Usage:") || text.hasPrefix("widget-quota "), "\(file): \(text.prefix(60))")
        let url = SourceTree.root.appendingPathComponent(Self.folder).appendingPathComponent(file)
        if Self.updating { try text.write(to: url, atomically: true, encoding: .utf8) }
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(
            saved == text,
            "\(file) differs from the help printed today; if the change is meant, run WIDGET_QUOTA_UPDATE_SNAPSHOTS=1 swift test -c release --disable-testable-imports --filter HelpSnapshotTests"
        )
    }

    @Test("no snapshot is left over from a command that no longer exists")
    func noStaleSnapshots() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: SourceTree.root.appendingPathComponent(Self.folder).path)
        #expect(Set(files) == Set(Self.snapshots.map(\.file)), "\(files.sorted())")
    }
}
