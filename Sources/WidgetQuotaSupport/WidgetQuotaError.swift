import Foundation

/// Quotes user-supplied text in a message, shortened so a hostile input cannot flood the terminal.
package func quoted(_ text: some StringProtocol, limit: Int = 60) -> String {
    let clean = String(text.prefix(limit)).map { $0.isNewline || $0 == "\t" ? " " : String($0) }.joined()
    return "\"" + clean + (text.count > limit ? "…" : "") + "\""
}

/// Every error the library reports, each with a message a person can act on.
///
/// An error about a file starts with the file's name (and line, when there is one):
/// `FILE: what is wrong`, `FILE:LINE: what is wrong`, `FILE:LINE:COLUMN: what is wrong`.
public enum WidgetQuotaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A scenario value is invalid; `field` is its dotted path (`horizon.users[2]`).
    case invalidScenario(field: String, problem: String)
    /// A scenario file could not be decoded.
    case malformedScenario(file: String, problem: String)
    /// A JSON file is not valid JSON; `line` and `column` (1-based) point at the problem.
    case malformedJSON(file: String, line: Int, column: Int, problem: String)
    /// An input line is malformed (`--strict`), or a file as a whole is unusable.
    case malformedInput(file: String, line: Int?, problem: String)
    /// A file could not be opened or read.
    case unreadable(file: String, problem: String)
    /// A file is empty or holds nothing usable.
    case emptyInput(file: String)
    /// A log file holds no records, only what `log show` prints before them (`reason` says which).
    case emptyLog(file: String, reason: String)
    /// An output could not be written.
    case unwritable(path: String, problem: String)
    /// The command line is wrong.
    case usage(String)
    /// A threshold expression could not be parsed or names an unknown metric.
    case badExpression(expression: String, problem: String)
    /// A property list (`Info.plist`, `.entitlements`, `project.pbxproj`) is not one this
    /// program can read; `expected` says what was expected at `line`.
    case malformedPropertyList(file: String, line: Int, expected: String)
    /// A program this one runs (the benchmark's measured jobs) could not start or failed.
    case childProcessFailed(command: String, problem: String)

    /// The process exit code for this error.
    public var exitCode: ExitCode {
        switch self {
        case .invalidScenario, .malformedScenario, .malformedJSON, .malformedInput, .malformedPropertyList, .badExpression:
            return .dataError
        case .unreadable, .emptyInput, .emptyLog: return .noInput
        case .unwritable: return .ioError
        case .usage: return .usage
        case .childProcessFailed: return .internalError
        }
    }

    public var description: String {
        switch self {
        case .invalidScenario(let field, let problem):
            return "invalid scenario: \(field): \(problem)"
        case .malformedScenario(let file, let problem):
            return "\(file): not a valid scenario: \(problem)"
        case .malformedJSON(let file, let line, let column, let problem):
            return "\(file):\(line):\(column): not valid JSON: \(problem)"
        case .malformedInput(let file, let line, let problem):
            if let line { return "\(file):\(line): \(problem)" }
            return "\(file): \(problem)"
        case .unreadable(let file, let problem):
            return "\(file): cannot read: \(problem)"
        case .emptyInput(let file):
            return "\(file): the file is empty"
        case .emptyLog(let file, let reason):
            return "\(file): \(reason)"
        case .unwritable(let path, let problem):
            return "\(path): cannot write: \(problem)"
        case .malformedPropertyList(let file, let line, let expected):
            return "\(file):\(line): not a property list this program can read: expected \(expected)"
        case .usage(let message):
            return message
        case .badExpression(let expression, let problem):
            return "threshold '\(expression)': \(problem)"
        case .childProcessFailed(let command, let problem):
            return "\(command): \(problem)"
        }
    }
}

extension WidgetQuotaError {
    /// Throws `.malformedJSON` with the line and column of the first syntax problem in `data`.
    package static func checkJSONSyntax(_ data: Data, file: String) throws {
        if let p = JSONSyntax.problem(in: data) {
            throw WidgetQuotaError.malformedJSON(file: file, line: p.line, column: p.column, problem: p.message)
        }
    }
}
