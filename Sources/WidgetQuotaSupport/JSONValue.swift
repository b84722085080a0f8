import Foundation

/// A JSON document as a value tree, so reports written by any version of the tool can be read
/// (diff, thresholds) without decoding them into today's Swift types.
package enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON text; `file` names the source in the error.
    package static func parse(_ data: Data, file: String) throws -> JSONValue {
        let data = JSONSyntax.withoutByteOrderMark(data)
        try WidgetQuotaError.checkJSONSyntax(data, file: file)
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw WidgetQuotaError.malformedInput(file: file, line: nil, problem: "not valid JSON (\(error.localizedDescription))")
        }
    }

    /// The JSON tree of an encodable value.
    package static func of<T: Encodable>(_ value: T) throws -> JSONValue {
        try parse(Data(try JSONOutput.encode(value).utf8), file: "\(T.self)")
    }

    /// The member `key` of an object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var number: Double? {
        if case .number(let v) = self { return v }
        return nil
    }
    package var string: String? {
        if case .string(let v) = self { return v }
        return nil
    }
    package var array: [JSONValue]? {
        if case .array(let v) = self { return v }
        return nil
    }

    /// Every scalar leaf with its dotted path, keys in sorted order (arrays as `[i]`).
    package func leaves(prefix: String = "") -> [(path: String, value: String)] {
        switch self {
        case .null: return [(prefix, "null")]
        case .bool(let b): return [(prefix, b ? "true" : "false")]
        // Six significant digits however small (a price per token), so a change is never rounded away.
        case .number(let n): return [(prefix, NumberText.plain(n, maxFractionDigits: CSVWriter.fractionDigits(n)))]
        case .string(let s): return [(prefix, s)]
        case .array(let items):
            if items.isEmpty { return [(prefix, "[]")] }
            return items.enumerated().flatMap { i, item in item.leaves(prefix: prefix + "[\(i)]") }
        case .object(let members):
            if members.isEmpty { return [(prefix, "{}")] }
            return members.keys.sorted().flatMap { key in
                members[key]!.leaves(prefix: prefix.isEmpty ? key : prefix + "." + key)
            }
        }
    }
}
