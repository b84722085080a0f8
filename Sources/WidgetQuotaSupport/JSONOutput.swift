import Foundation

/// Deterministic JSON: sorted keys, no escaped slashes, non-finite numbers as strings.
package enum JSONOutput {
    /// Pretty-printed JSON text of `value`, ending with a newline.
    package static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
