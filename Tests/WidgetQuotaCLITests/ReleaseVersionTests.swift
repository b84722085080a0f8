import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// One version everywhere: the binary's, the CHANGELOG's latest release, and every install line
/// the documentation gives (the action's tag, SwiftPM's `from:`, Mint's and git's tags).
@Suite("release version") struct ReleaseVersionTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.packageURL(path), encoding: .utf8)
    }

    @Test("the CHANGELOG's latest release is the binary's version, dated")
    func changelog() throws {
        let headings = try Self.text("CHANGELOG.md").split(separator: "\n").filter {
            $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
        }
        let latest = try #require(headings.first)
        #expect(
            latest.wholeMatch(of: /## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}/)?.1 == Substring(WidgetQuotaVersion.current), "\(latest)")
    }

    @Test(
        "every install line names the current release",
        arguments: ["README.md", "docs/ci.md", "docs/lint.md", ".github/workflows/widget-quota.yml.example", "action.yml"])
    func installLines(path: String) throws {
        let text = try Self.text(path)
        let v = WidgetQuotaVersion.current
        let named =
            text.matches(of: /widget-quota\/widget-quota@v(\d+\.\d+\.\d+)/).map { String($0.1) }
            + text.matches(of: /from: "(\d+\.\d+\.\d+)"/).map { String($0.1) }
            + text.matches(of: /--branch v(\d+\.\d+\.\d+)/).map { String($0.1) }
        #expect(named.allSatisfy { $0 == v }, "\(path) names \(named), the version is \(v)")
    }
}
