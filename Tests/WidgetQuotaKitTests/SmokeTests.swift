import Testing
@testable import WidgetQuotaKit

@Test func defaultScenarioValidates() throws {
    try ScenarioValidator.validate(Scenario())
}
