import Foundation

/// A number that a JSON output always names: its value, or `null` when there is none (Swift's
/// synthesized encoding would leave the key out, and a CI script would find no field at all).
package struct NullableNumber: Codable, Sendable, Equatable {
    package var value: Double?

    package init(_ value: Double?) { self.value = value }

    package init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        value = c.decodeNil() ? nil : try c.decode(Double.self)
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if let value { try c.encode(value) } else { try c.encodeNil() }
    }
}
