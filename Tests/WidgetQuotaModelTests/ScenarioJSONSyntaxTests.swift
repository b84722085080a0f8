import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("scenario JSON syntax") struct ScenarioJSONSyntaxTests {
    @Test("a scenario file with a syntax error names the file, line and column")
    func scenarioSyntaxErrorNamesFileLineAndColumn() {
        #expect(
            throws: WidgetQuotaError.malformedJSON(
                file: "s.json", line: 2, column: 14,
                problem: "expected a member name in double quotes, found '}' (a trailing comma?)")
        ) {
            try ScenarioLoader.decode(Data("{\"horizon\": {\"runs\": 3,\n             }}".utf8), file: "s.json")
        }
        let message = WidgetQuotaError.malformedJSON(file: "s.json", line: 2, column: 14, problem: "x").description
        #expect(message == "s.json:2:14: not valid JSON: x")
    }

    @Test("a leading byte order mark is ignored in a scenario, and only there at the start")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let scenario = try ScenarioLoader.decode(Data(bom + Array(#"{"horizon": {"days": 7}}"#.utf8)), file: "bom.json")
        #expect(scenario.horizon.days == 7)
        #expect(JSONSyntax.withoutByteOrderMark(Data(bom + [0x7B, 0x7D])) == Data([0x7B, 0x7D]))
        #expect(throws: WidgetQuotaError.self) { try ScenarioLoader.decode(Data(Array("{".utf8) + bom + Array("}".utf8)), file: "x.json") }
    }
}
