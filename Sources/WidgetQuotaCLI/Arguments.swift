import Foundation
import WidgetQuotaKit

/// A small command-line flag reader: `--flag value`, `--flag=value`, boolean switches and positionals.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var switches: Set<String> = []
    private var consumed: Set<String> = []

    /// - Parameters:
    ///   - valued: flags that take a value.
    ///   - switches: flags that take none.
    init(_ args: [String], valued: Set<String>, switches allowedSwitches: Set<String>) throws {
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--" {
                positionals.append(contentsOf: args[(i + 1)...])
                break
            }
            if arg.hasPrefix("--") {
                var name = String(arg.dropFirst(2))
                var inline: String?
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                if valued.contains(name) {
                    let value: String
                    if let inline {
                        value = inline
                    } else {
                        guard i + 1 < args.count else { throw WidgetQuotaError.usage("--\(name) needs a value") }
                        i += 1
                        value = args[i]
                    }
                    values[name, default: []].append(value)
                } else if allowedSwitches.contains(name) {
                    guard inline == nil else { throw WidgetQuotaError.usage("--\(name) takes no value") }
                    switches.insert(name)
                } else {
                    let all = valued.union(allowedSwitches)
                    let hint = Levenshtein.nearest(to: name, in: all).map { "; did you mean --\($0)?" } ?? ""
                    throw WidgetQuotaError.usage("unknown option --\(name.prefix(60))\(hint)")
                }
            } else if arg.hasPrefix("-") && arg.count > 1 && Double(arg) == nil {
                if arg == "-h" { switches.insert("help") } else {
                    throw WidgetQuotaError.usage("unknown option \(quoted(arg))")
                }
            } else {
                positionals.append(arg)
            }
            i += 1
        }
    }

    func flag(_ name: String) -> Bool { switches.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String, min: Int = Int.min, max: Int = Int.max) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text.replacingOccurrences(of: "_", with: "")), v >= min, v <= max else {
            throw WidgetQuotaError.usage("--\(name) expects a whole number between \(min) and \(max), got \"\(text)\"")
        }
        return v
    }

    func uint64(_ name: String) throws -> UInt64? {
        guard let text = value(name) else { return nil }
        guard let v = UInt64(text) else { throw WidgetQuotaError.usage("--\(name) expects a non-negative whole number, got \"\(text)\"") }
        return v
    }

    func list(_ name: String) -> [String]? {
        guard let text = value(name) else { return nil }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func intList(_ name: String) throws -> [Int]? {
        guard let items = list(name) else { return nil }
        return try items.map { item in
            guard let v = Int(item.replacingOccurrences(of: "_", with: "")) else {
                throw WidgetQuotaError.usage("--\(name) expects comma-separated whole numbers, got \"\(item)\"")
            }
            return v
        }
    }
}
