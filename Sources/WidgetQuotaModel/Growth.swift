import Foundation
import WidgetQuotaSupport

/// Users per month over a launch: listed month by month, or a curve from a start to an end.
///
/// In a scenario, `horizon.growth` is either a list (`[20000, 60000, 110000]`, month 1 first) or
/// an object `{"start": 20000, "end": 250000, "months": 6, "curve": "linear"}`; `curve` is
/// `linear` (the same number of new users every month) or `exponential` (the same factor every
/// month) and defaults to `linear`.
public enum Growth: Codable, Sendable, Equatable {
    /// Users in each month, month 1 first.
    case monthly([Int])
    /// `months` months from `start` to `end` users along `curve`.
    case curve(start: Int, end: Int, months: Int, curve: Curve)

    /// How users grow between the start and the end.
    public enum Curve: String, Codable, Sendable, CaseIterable {
        /// The same number of new users every month.
        case linear
        /// The same growth factor every month.
        case exponential
    }

    /// Most months a growth may list (ten years).
    public static let maxMonths = 120

    /// Users in each month, month 1 first (whole users, rounded to the nearest).
    public var users: [Int] {
        switch self {
        case .monthly(let list): return list
        case .curve(let start, let end, let months, let curve):
            guard months > 1 else { return [start] }
            return (0..<months).map { i in
                let f = Double(i) / Double(months - 1)
                let a = Double(start)
                let b = Double(end)
                let value: Double
                switch curve {
                case .linear: value = a + (b - a) * f
                case .exponential: value = a > 0 && b > 0 ? a * Foundation.pow(b / a, f) : a + (b - a) * f
                }
                return i == months - 1 ? end : Int(value.rounded())
            }
        }
    }

    private enum CurveKeys: String, CodingKey { case start, end, months, curve }

    public init(from decoder: Decoder) throws {
        if let list = try? decoder.singleValueContainer().decode([Int].self) {
            self = .monthly(list)
            return
        }
        let field = "horizon.growth"
        guard let c = try? decoder.container(keyedBy: CurveKeys.self) else {
            throw WidgetQuotaError.invalidScenario(
                field: field,
                problem: "expected a list of whole numbers of users per month, e.g. [20000, 60000, 110000], "
                    + "or {\"start\": 20000, \"end\": 250000, \"months\": 6, \"curve\": \"linear\"}")
        }
        func whole(_ key: CurveKeys) throws -> Int {
            guard c.contains(key) else {
                throw WidgetQuotaError.invalidScenario(
                    field: "\(field).\(key.rawValue)", problem: "missing; a growth curve needs start, end and months")
            }
            guard let value = try? c.decode(Int.self, forKey: key) else {
                throw WidgetQuotaError.invalidScenario(field: "\(field).\(key.rawValue)", problem: "must be a whole number")
            }
            return value
        }
        let start = try whole(.start)
        let end = try whole(.end)
        let months = try whole(.months)
        var shape = Curve.linear
        if c.contains(.curve) {
            guard let name = try? c.decode(String.self, forKey: .curve) else {
                throw WidgetQuotaError.invalidScenario(field: "\(field).curve", problem: "must be \"linear\" or \"exponential\"")
            }
            guard let known = Curve(rawValue: name) else {
                let hint = Levenshtein.nearest(to: name, in: Curve.allCases.map(\.rawValue)).map { "; did you mean \"\($0)\"?" } ?? ""
                throw WidgetQuotaError.invalidScenario(
                    field: "\(field).curve", problem: "unknown curve \"\(name)\" (expected \"linear\" or \"exponential\")\(hint)")
            }
            shape = known
        }
        self = .curve(start: start, end: end, months: months, curve: shape)
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .monthly(let list):
            var c = encoder.singleValueContainer()
            try c.encode(list)
        case .curve(let start, let end, let months, let curve):
            var c = encoder.container(keyedBy: CurveKeys.self)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encode(months, forKey: .months)
            try c.encode(curve, forKey: .curve)
        }
    }
}
