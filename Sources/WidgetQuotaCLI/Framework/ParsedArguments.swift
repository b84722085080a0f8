import Foundation
import WidgetQuotaKit
import WidgetQuotaSupport

/// A command line read against a command's options: `--flag value`, `--flag=value`, switches,
/// and positional arguments (all of them after `--`).
package struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var switches: Set<String> = []

    /// Reads `args`; an option the command does not declare, a missing value or a value given
    /// to a switch is a usage error that names the option.
    package init(_ args: [String], options: [Option]) throws {
        let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
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
                guard let option = byName[name] else {
                    let hint = Levenshtein.nearest(to: name, in: byName.keys).map { "; did you mean --\($0)?" } ?? ""
                    throw WidgetQuotaError.usage("unknown option --\(name.prefix(60))\(hint)")
                }
                if option.value == nil {
                    guard inline == nil else { throw WidgetQuotaError.usage("--\(name) takes no value") }
                    switches.insert(name)
                } else if let inline {
                    values[name, default: []].append(inline)
                } else {
                    guard i + 1 < args.count else { throw WidgetQuotaError.usage("--\(name) needs a value (\(option.value!))") }
                    i += 1
                    values[name, default: []].append(args[i])
                }
            } else if arg.hasPrefix("-") && arg.count > 1 && Double(arg) == nil {
                throw WidgetQuotaError.usage(Self.shortOptionMessage(arg))
            } else {
                positionals.append(arg)
            }
            i += 1
        }
    }

    /// Whether `args` ask for the command's help: `--help` or `-h` where an option may stand, not
    /// after `--` and not as another option's value (`--out --help` names a file).
    package static func asksForHelp(_ args: [String], options: [Option]) -> Bool {
        let valued = Set(options.filter { $0.value != nil }.map(\.name))
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--" { return false }
            if arg == "--help" || arg == "-h" { return true }
            if arg.hasPrefix("--"), !arg.contains("="), valued.contains(String(arg.dropFirst(2))) { i += 1 }
            i += 1
        }
        return false
    }

    /// Fails unless standard input (`-`) feeds at most one of the inputs `spec` reads: a second
    /// reader would find it empty.
    package func expectStandardInputOnce(_ spec: CommandSpec) throws {
        let stdin = InputFile.standardInput
        var readers = spec.options.filter(\.readsFile).flatMap { option in
            all(option).filter { $0 == stdin }.map { _ in "--" + option.name }
        }
        if spec.argumentsReadFiles {
            // Each positional by its name in the usage line (`BASE.json HEAD.json`, `PATH...`).
            let names = spec.arguments.split(separator: " ").map { $0.replacingOccurrences(of: "...", with: "") }
            for (i, argument) in positionals.enumerated() where argument == stdin {
                readers.append(names.isEmpty ? "an argument" : names[min(i, names.count - 1)])
            }
        }
        guard readers.count > 1 else { return }
        let names = readers.count == 2 ? readers.joined(separator: " and ") : readers.joined(separator: ", ")
        throw WidgetQuotaError.usage("standard input (-) feeds one input, and \(names) each name it; save all but one to a file")
    }

    /// What to say about a one-dash option: only `-h` exists; `-v` and `-V` mean `--version`.
    static func shortOptionMessage(_ arg: String) -> String {
        switch arg {
        case "-v", "-V": return "unknown option \(quoted(arg)); did you mean --version? (widget-quota --version)"
        default: return "unknown option \(quoted(arg)); options start with two dashes (--help lists them)"
        }
    }

    func flag(_ option: Option) -> Bool { switches.contains(option.name) }
    func value(_ option: Option) -> String? { values[option.name]?.last }
    func all(_ option: Option) -> [String] { values[option.name] ?? [] }
    func has(_ option: Option) -> Bool { values[option.name] != nil || switches.contains(option.name) }

    /// Fails unless there are no positional arguments.
    func expectNoPositionals() throws {
        if let extra = positionals.first { throw WidgetQuotaError.usage("unexpected argument \(quoted(extra))") }
    }

    func int(_ option: Option, min: Int = Int.min, max: Int = Int.max) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let v = Int(text.replacingOccurrences(of: "_", with: "")), v >= min, v <= max else {
            let range = min == Int.min && max == Int.max ? "" : " between \(min) and \(max)"
            throw WidgetQuotaError.usage("--\(option.name) expects a whole number\(range), got \(quoted(text))")
        }
        return v
    }

    func uint64(_ option: Option) throws -> UInt64? {
        guard let text = value(option) else { return nil }
        guard let v = UInt64(text) else {
            throw WidgetQuotaError.usage("--\(option.name) expects a non-negative whole number, got \(quoted(text))")
        }
        return v
    }

    /// A comma-separated list, blank items dropped.
    func list(_ option: Option) -> [String]? {
        guard let text = value(option) else { return nil }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Comma-separated whole numbers; an empty item (`1,,2`, a trailing comma) is an error, not skipped.
    func intList(_ option: Option) throws -> [Int]? {
        guard let text = value(option) else { return nil }
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if items.contains(where: \.isEmpty) {
            throw WidgetQuotaError.usage("--\(option.name) expects comma-separated whole numbers, got an empty item in \(quoted(text))")
        }
        return try items.map { item in
            guard let v = Int(item.replacingOccurrences(of: "_", with: "")) else {
                throw WidgetQuotaError.usage("--\(option.name) expects comma-separated whole numbers, got \(quoted(item))")
            }
            return v
        }
    }

    /// One of `choices`, or `fallback` when the option is absent.
    func choice(_ option: Option, in choices: [String], default fallback: String) throws -> String {
        let text = value(option) ?? fallback
        guard choices.contains(text) else {
            throw WidgetQuotaError.usage("--\(option.name) expects \(Self.orList(choices)), got \(quoted(text))")
        }
        return text
    }

    /// The value of an option that names one case of `T` by its raw value, or `fallback`.
    func choice<T: RawRepresentable & CaseIterable>(_ option: Option, default fallback: T) throws -> T where T.RawValue == String {
        let text = try choice(option, in: T.allCases.map(\.rawValue), default: fallback.rawValue)
        return T(rawValue: text)!
    }

    /// `a, b or c`.
    static func orList(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
