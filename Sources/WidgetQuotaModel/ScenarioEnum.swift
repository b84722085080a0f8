import Foundation
import WidgetQuotaSupport

/// Decodes a string enum read from a scenario file: an unknown value is named in the error with
/// every valid one and the nearest suggested, instead of Foundation's "Cannot initialize ... from
/// invalid String value".
enum ScenarioEnum {
    static func decode<E: RawRepresentable & CaseIterable>(_ decoder: Decoder) throws -> E where E.RawValue == String {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = E(rawValue: text) else {
            let names = E.allCases.map(\.rawValue)
            var message = "unknown value \(quoted(text)); expected one of \(names.joined(separator: ", "))"
            if let nearest = Levenshtein.nearest(to: text, in: names) { message += "; did you mean \"\(nearest)\"?" }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: message)
        }
        return value
    }
}

extension Design.Trigger {
    public init(from decoder: Decoder) throws { self = try ScenarioEnum.decode(decoder) }
}

extension Design.ReloadCalls {
    public init(from decoder: Decoder) throws { self = try ScenarioEnum.decode(decoder) }
}

extension Design.PushScope {
    public init(from decoder: Decoder) throws { self = try ScenarioEnum.decode(decoder) }
}
