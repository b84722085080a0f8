import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("change gates") struct ChangeGateTests {
    static func json(_ text: String) -> JSONValue {
        try! JSONValue.parse(Data(text.utf8), file: "test.json")
    }

    /// The tiny fixture as BASE, and HEAD with cache-bgtask at 1,000 users costing 20% more
    /// (9.6 → 11.52), its stale share 10 points higher, and tier1 broken (tier1 → above tier1).
    static let base = json(try! Fixtures.report("tiny-report.json"))
    static let head = json(
        try! Fixtures.report("tiny-report.json")
            .replacingOccurrences(of: "\"mean\": 9.6, \"p5\": 9, \"p95\": 10", with: "\"mean\": 11.52, \"p5\": 11, \"p95\": 12")
            .replacingOccurrences(
                of: "\"freshness\": { \"staleShare\": 0.75 },\n      \"cost\": { \"model\": \"m\", \"perMonth\": { \"mean\": 11.52",
                with: "\"freshness\": { \"staleShare\": 0.85 },\n      \"cost\": { \"model\": \"m\", \"perMonth\": { \"mean\": 11.52"
            )
            .replacingOccurrences(
                of: "{ \"tier\": \"tier1\", \"exceedProbability\": 0.04 }", with: "{ \"tier\": \"tier1\", \"exceedProbability\": 0.5 }"))

    func gate(_ text: String, severity: Threshold.Severity = .fail) throws -> ChangeOutcome {
        try ChangeEvaluator.evaluate([try Threshold(text, severity: severity)], base: Self.base, head: Self.head)[0]
    }

    @Test("change and tierChange parse into what they measure") func changeAndTierChangeParse() throws {
        let relative = try ThresholdExpression.parse("change(costPerMonth{design=cache-bgtask,users=20000}) > 10%")
        #expect(relative.measure == .change && relative.limitIsPercent && relative.limit == 0.1 && relative.metric == "costPerMonth")
        #expect(relative.selector == [.init(key: "design", value: "cache-bgtask"), .init(key: "users", value: "20000")])
        let absolute = try ThresholdExpression.parse(" change ( freshness.overTargetShare{design=a} ) > 0.05 ")
        #expect(absolute.measure == .change && !absolute.limitIsPercent && absolute.limit == 0.05)
        for text in ["tierChange({design=a,users=1000}) > 0", "tierChange(design=a, users=1000) > 0"] {
            let tier = try ThresholdExpression.parse(text)
            #expect(tier.measure == .tierChange && tier.metric == "tier" && tier.selector.count == 2 && tier.comparesReports)
        }
        #expect(try ThresholdExpression.parse("tierChange() > 0").selector.isEmpty)
        #expect(try ThresholdExpression.parse("costPerMonth > 5%").measure == .value)
    }

    @Test(
        "a malformed change expression names what was expected",
        arguments: [
            ("change(costPerMonth > 10%", "expected \")\" to close change("),
            ("chnage(costPerMonth) > 10%", "unknown function \"chnage\""),
            ("change() > 1", "expected a metric name inside change("),
            ("change(costPerMonth{design=a) > 1", "expected \",\" or \"}\""),
            ("tierChange(design=) > 0", "expected a value for label \"design\""),
            ("tierChange({design=a} > 0", "expected \")\" to close tierChange("),
            ("change(costPerMonth) >", "expected a number"),
        ])
    func malformedChangeExpressionNamesWhatWasExpected(text: String, expected: String) {
        #expect {
            _ = try ThresholdExpression.parse(text)
        } throws: { error in
            guard case WidgetQuotaError.badExpression(_, let problem) = error else { return false }
            return problem.contains(expected) && (error as? WidgetQuotaError)?.exitCode == .dataError
        }
    }

    @Test("a relative change gate fails above its percent and passes below") func relativeChangeGate() throws {
        let fails = try gate("change(costPerMonth{design=cache-bgtask,users=1000}) > 10%")
        #expect(!fails.passed && fails.failsRun && fails.relative)
        #expect(fails.worst?.base == 9.6 && fails.worst?.head == 11.52)
        #expect(abs((fails.worst?.change ?? 0) - 0.2) < 1e-9)
        #expect(fails.formattedChange(fails.worst!.change) == "+20.0%")
        let passes = try gate("change(costPerMonth{design=cache-bgtask,users=1000}) > 25%")
        #expect(passes.passed && !passes.failsRun)
        // Rows that did not move are compared too: direct did not change at all.
        let all = try gate("change(costPerMonth) > 10%")
        #expect(all.rows.count == 4 && all.violations == 1 && all.worst?.row == "design=cache-bgtask, users=1000")
    }

    @Test("an absolute change gate measures a share in points") func absoluteChangeGateMeasuresPoints() throws {
        let fails = try gate("change(staleShare{design=cache-bgtask,users=1000}) > 0.05")
        #expect(!fails.passed && abs(fails.worst!.change - 0.1) < 1e-9)
        #expect(fails.formattedChange(fails.worst!.change) == "+10.0 pts")
        #expect(try gate("change(staleShare{design=cache-bgtask,users=1000}) > 0.15").passed)
    }

    @Test("tierChange counts how many tiers dearer head's tier is") func tierChangeCountsTiers() throws {
        let fails = try gate("tierChange({design=cache-bgtask}) > 0")
        #expect(!fails.passed && fails.violations == 1)
        #expect(fails.worst?.row == "design=cache-bgtask, users=1000")
        #expect(fails.worst?.baseText == "tier1" && fails.worst?.headText == "above tier1" && fails.worst?.change == 1)
        #expect(try gate("tierChange(design=direct) > 0").passed)
        let warning = try gate("tierChange() > 0", severity: .warn)
        #expect(!warning.passed && !warning.failsRun && warning.verdict == "warning")
    }

    @Test(
        "a change gate that names nothing both reports have is a data error",
        arguments: [
            ("change(nosuch{design=direct}) > 1%", "unknown metric"),
            ("change(costPerMonth{design=nope}) > 1%", "no row has design=nope"),
            ("tierChange(tier=free) > 0", "selects rows by design and users"),
            ("tierChange(design=nope) > 0", "no design × user row"),
        ])
    func changeGateNamingNothingIsADataError(text: String, expected: String) {
        #expect {
            _ = try gate(text)
        } throws: { error in
            guard case WidgetQuotaError.badExpression(_, let problem) = error else { return false }
            return problem.contains(expected)
        }
    }

    @Test("a change gate checked against one report says it needs two") func changeGateAgainstOneReportNeedsTwo() {
        #expect {
            _ = try ThresholdEvaluator.evaluate(
                try Threshold("change(costPerMonth) > 10%", severity: .fail), on: MetricTable(json: Self.base))
        } throws: { error in
            guard case WidgetQuotaError.badExpression(_, let problem) = error else { return false }
            return problem.contains("compare two reports")
        }
    }
}
