import Testing
import WidgetQuotaGates
import WidgetQuotaReporting
import WidgetQuotaSupport

@Suite("threshold section") struct ThresholdSectionTests {
    /// The report's summary line counts fail-ifs and warn-ifs apart: warnings are not passes.
    @Test("the thresholds section counts fail ifs and warn ifs apart") func theThresholdsSectionCountsFailIfsAndWarnIfsApart() {
        func outcome(_ severity: Threshold.Severity, violated: Bool) -> ThresholdOutcome {
            ThresholdOutcome(
                expression: "freshness.staleShare > 0.01", severity: severity, metric: "freshness.staleShare", rowsChecked: 1,
                violations: violated ? [.init(row: "design=direct", value: 0.77)] : [])
        }
        let warnings = ThresholdSection(outcomes: [outcome(.warn, violated: true), outcome(.warn, violated: true)]).markdown()
        #expect(warnings.contains("2 of 2 warn-if thresholds raised a warning.") && !warnings.contains("passed."))
        #expect(warnings.contains("design=direct: 77.0%"))
        let mixed = ThresholdSection(outcomes: [outcome(.fail, violated: false), outcome(.warn, violated: false)]).markdown()
        #expect(mixed.contains("All 1 fail-if threshold passed. No warn-if threshold was crossed (1 checked)."))
        let failed = ThresholdSection(outcomes: [outcome(.fail, violated: true), outcome(.fail, violated: false)]).markdown()
        #expect(failed.contains("**1 of 2 fail-if thresholds failed.**"))
    }
}
