import Testing
import WidgetQuotaLint
import WidgetQuotaLogs
import WidgetQuotaModel

/// `analyze` and `lint` report the same checklist: a rule's findings from logs carry the severity
/// its lint rule gives it.
@Suite("Checklist agreement")
struct ChecklistAgreementTests {
    @Test("Log findings of a rule have lint's default severity for it")
    func severities() {
        #expect(ChecklistWitness.reloadMisuseSeverity == ChecklistRule.reloadMisuse.defaultSeverity)
        #expect(ChecklistWitness.snapshotNetworkSeverity == ChecklistRule.snapshotNetwork.defaultSeverity)
        #expect(Set(ChecklistWitness.rules).isSubset(of: Set(LintRules.all.map(\.rule))))
    }
}
