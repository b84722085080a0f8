import Foundation
import Testing
import WidgetQuotaKit
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// The projection of the design read from the code, and the costs it gives findings.
@Suite("Lint job")
struct LintJobTests {
    static func inference(_ app: String) throws -> DesignInference {
        try #require(DesignReader.read(try AppSourceTree.load(paths: [Fixtures.path("apps/\(app)")]), name: app))
    }

    @Test("the findings whose cost the projection states carry it; the others keep none")
    func costs() throws {
        let broken = try Self.inference("broken-app")
        let findings = [ChecklistRule.widgetNetworkCall, .policyShorterThanTTL, .retryLoop, .requestTimeout].map {
            Finding(rule: $0, location: .init(file: "a.swift", line: 1), message: "m", fix: "f")
        }
        let costed = LintJob.costed(findings, inference: broken, mine: 1_709.4, baseline: 97.4)
        #expect(costed[0].cost == "≈ 1,709 requests per user a month instead of ≈ 97.4 with the cache design")
        #expect(costed[1].cost == costed[0].cost)
        #expect(costed[2].cost == "up to 3 requests per refresh while the API is down, instead of 1")
        #expect(costed[3].cost == nil)
        // A cache design's widget does not request: no request cost to state.
        let cache = try Self.inference("cache-app")
        #expect(LintJob.costed(findings, inference: cache, mine: 60, baseline: 97).allSatisfy { $0.cost == nil })
    }

    @Test("the projection fills the design's figures: a widget that calls the API costs far more than the cache design")
    func projection() throws {
        let direct = try LintJob(run: LintRun(paths: [Fixtures.path("apps/direct-widget")])).execute()
        let design = try #require(direct.report.design)
        let mine = try #require(design.requestsPerUserMonth)
        let cache = try #require(design.baselineRequestsPerUserMonth)
        #expect(mine > 10 * cache)
        #expect(design.projection == LintJob.projectionSetting)
        #expect(direct.scenario?.baseline == "direct-widget")
        let cacheApp = try LintJob(run: LintRun(paths: [Fixtures.path("apps/cache-app")])).execute()
        #expect(try #require(cacheApp.report.design?.requestsPerUserMonth) < cache * 1.5)
    }
}
