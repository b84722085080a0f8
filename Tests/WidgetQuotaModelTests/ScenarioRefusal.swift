import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport

/// Expects the scenario `json` to be refused with an error that names `field`.
func expectRefused(_ json: String, naming field: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try ScenarioLoader.decode(Data(json.utf8), file: "s.json")
        Issue.record("accepted \(json)", sourceLocation: sourceLocation)
    } catch let error as WidgetQuotaError {
        #expect("\(error)".contains(field), "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
    }
}
