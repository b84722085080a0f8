import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("threshold") struct ThresholdTests {
    static let table: MetricTable = {
        let json = try! JSONValue.parse(Data(try! Fixtures.report("tiny-report.json").utf8), file: "tiny-report.json")
        return MetricTable(json: json)
    }()

    func check(_ text: String) throws -> ThresholdOutcome {
        try ThresholdEvaluator.evaluate(try Threshold(text, severity: .fail), on: Self.table)
    }

    @Test(
        "operators",
        arguments: [
            // (expression, violated?) — direct@100 p95 is 1400, direct@1000 is 1410.
            ("requestsPerUserMonth.p95{design=direct} > 1405", true),
            ("requestsPerUserMonth.p95{design=direct} > 1410", false),
            ("requestsPerUserMonth.p95{design=direct} >= 1410", true),
            ("requestsPerUserMonth.p95{design=direct} < 1400", false),
            ("requestsPerUserMonth.p95{design=direct} <= 1400", true),
            ("requestsPerUserMonth.p95{design=direct,users=100} == 1400", true),
            ("requestsPerUserMonth.p95{design=direct,users=100} != 1400", false),
            ("requestsPerUserMonth.p95{design=direct,users=100} != 1401", true),
        ])
    func operators(expression: String, violated: Bool) throws {
        #expect(try check(expression).passed == !violated)
    }

    @Test(
        "selectors and aliases",
        arguments: [
            ("quotaExceedProbability{tier=free} > 0.6", 3),  // every row but cache-bgtask@100
            ("quotaExceedProbability{tier=tier1,users=1000} > 0.05", 1),
            ("quotaExceedProbability{tier=tier1,users=1_000,design=cache-bgtask} > 0.05", 0),
            ("costPerMonth{users=1000} > 50", 1),
            ("requestsPerMonth{design=cache-bgtask} > 90000", 1),
            ("staleShare > 50%", 2),
            ("headroom{tier=free} < 10", 1),
            ("totalRequestsPerMonth{users=1e3} >= 1e5", 1),
        ])
    func selectorsAndAliases(expression: String, violations: Int) throws {
        #expect(try check(expression).violations.count == violations)
    }

    @Test("worst violation comes first") func worstViolationComesFirst() throws {
        let outcome = try check("requestsPerUserMonth.p95 > 100")
        #expect(outcome.violations.first?.value == 1410)
        #expect(outcome.violations.first?.row == "design=direct, users=1000")
        #expect(outcome.rowsChecked == 4)
    }

    /// A tier no searched population breaks has unlimited headroom (no `maxUsers` in the JSON):
    /// a threshold sees it as above any limit, not as a row that does not exist. NaN and
    /// infinities, which JSON carries as strings, are values too, not labels.
    @Test("unlimited headroom and non finite values are numbers") func unlimitedHeadroomAndNonFiniteValuesAreNumbers() throws {
        let text = #"""
            {"headroom": [{"design": "a", "tier": "big", "largestPopulationSearched": 1000000000, "exceedProbabilityAtMax": 0},
                          {"design": "a", "tier": "free", "maxUsers": 80, "largestPopulationSearched": 1000000000, "exceedProbabilityAtMax": 0.05}],
             "results": [{"design": "a", "users": 10, "quota": [{"tier": "free", "rpmUtilizationP95": "NaN"},
                                                               {"tier": "big", "rpmUtilizationP95": 0.5}]}]}
            """#
        let table = MetricTable(json: try JSONValue.parse(Data(text.utf8), file: "report.json"))
        func outcome(_ expression: String) throws -> ThresholdOutcome {
            try ThresholdEvaluator.evaluate(Threshold(expression: try ThresholdExpression.parse(expression), severity: .fail), on: table)
        }
        #expect(try outcome("headroom{tier=big} < 1000000").violations.isEmpty)
        #expect(try outcome("headroom{tier=big} > 5").violations.count == 1)
        #expect(try outcome("headroom < 100").violations.map(\.row) == ["design=a, tier=free"])
        let utilization = try outcome("rpmUtilizationP95 > 0.1")
        #expect(utilization.rowsChecked == 2 && utilization.violations.map(\.row) == ["design=a, users=10, tier=big"])
    }

    /// metrics.csv gives a single figure the statistic `value`; metric + "." + statistic must be
    /// a path a threshold takes, as the README says, for those figures too.
    @Test("a single figures value path is accepted") func aSingleFiguresValuePathIsAccepted() throws {
        let table = try MetricTable(ReportFixtures.result)
        #expect(try table.resolve("appOpensPerUserDay.value") == "appOpensPerUserDay")
        #expect(try table.resolve("ratioToBaseline.value") == "ratioToBaseline")
        #expect(throws: (any Error).self) { try table.resolve("noSuchFigure.value") }
    }

    @Test("numbers accept underscores exponents and percent") func numbersAcceptUnderscoresExponentsAndPercent() throws {
        #expect(try ThresholdExpression.parse("a > 1_000_000").limit == 1_000_000)
        #expect(try ThresholdExpression.parse("a > 2.5e3").limit == 2_500)
        #expect(try ThresholdExpression.parse("a > -3E-2").limit == -0.03)
        #expect(try ThresholdExpression.parse("a>5%").limit == 0.05)
        let e = try ThresholdExpression.parse("  a.b { design = x-y , users=10 }  >=  7 ")
        #expect(e.metric == "a.b" && e.op == .greaterOrEqual)
        #expect(e.selector == [.init(key: "design", value: "x-y"), .init(key: "users", value: "10")])
    }

    @Test(
        "malformed expressions are bad expressions",
        arguments: [
            "", "> 5", "a >", "a 5", "a = 5", "a > 1__0", "a > 1_", "a > _1", "a > 1e", "a > 1e999", "a{design} > 1",
            "a{design=x > 1", "a{design=x,design=y} > 1", "a > 5 extra", "a..b > 1", "a. > 1", "a > --1", "a{=x} > 1",
        ])
    func malformedExpressionsAreBadExpressions(text: String) {
        #expect {
            _ = try ThresholdExpression.parse(text)
        } throws: { error in
            guard case WidgetQuotaError.badExpression = error else { return false }
            return (error as! WidgetQuotaError).exitCode == .dataError
        }
    }

    @Test("unknown metric suggests the nearest name") func unknownMetricSuggestsTheNearestName() {
        #expect {
            _ = try check("requestsPerUserMonth.p59 > 1")
        } throws: { error in
            "\(error)".contains("unknown metric") && "\(error)".contains("requestsPerUserMonth.p95")
        }
    }

    @Test("selector matching no row is an error naming the values") func selectorMatchingNoRowIsAnErrorNamingTheValues() {
        #expect {
            _ = try check("requestsPerUserMonth.p95{design=drect} > 1")
        } throws: { error in
            "\(error)".contains("no row has design=drect") && "\(error)".contains("did you mean \"direct\"")
        }
        #expect {
            _ = try check("requestsPerUserMonth.p95{tier=free} > 1")
        } throws: { error in
            "\(error)".contains("no label \"tier\"")
        }
        #expect {
            _ = try check("requestsPerUserMonth.p95{users=5000} > 1")
        } throws: { error in
            "\(error)".contains("users values in this report: 100, 1000")
        }
    }

    @Test("parser never crashes on random input") func parserNeverCrashesOnRandomInput() {
        // Deterministic fuzzing: random strings over the grammar's alphabet and a few wild characters.
        let alphabet = Array("abcdeDesignusrtifq.{}=,<>!=_-+%0123456789eE \t\"'|\\\u{0}é🙂".unicodeScalars)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var accepted = 0
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59)
            var text = ""
            for k in 0..<length {
                let r = (state >> UInt64(k % 50)) ^ (state &* UInt64(k + 1))
                text.unicodeScalars.append(alphabet[Int(r % UInt64(alphabet.count))])
            }
            if (try? ThresholdExpression.parse(text)) != nil { accepted += 1 }
        }
        #expect(accepted < 20_000)
    }
}
