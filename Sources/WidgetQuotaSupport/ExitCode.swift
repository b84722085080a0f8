/// Process exit codes, the same for every command (documented in README.md and `--help`).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything worked and every threshold passed.
    case success = 0
    /// The run worked but a `--fail-if` threshold failed, or `lint` found something at or above `--fail-on`.
    case thresholdFailed = 1
    /// The command line was wrong (unknown flag, missing value).
    case usage = 64
    /// Input data was invalid: a scenario, a log file, a rules file, a JSON report, a property list, a threshold expression.
    case dataError = 65
    /// An input file could not be found or read.
    case noInput = 66
    /// Something that should not happen; please report it.
    case internalError = 70
    /// An output could not be written.
    case ioError = 74

    /// One line for `--help` and README.
    public var meaning: String {
        switch self {
        case .success: return "success"
        case .thresholdFailed:
            return "a --fail-if threshold failed, or lint found something at or above --fail-on (the report is still written)"
        case .usage: return "usage error: unknown command or flag, missing or malformed value"
        case .dataError: return "bad input data: invalid scenario, log, rules file, JSON report, property list or threshold expression"
        case .noInput: return "an input file is missing, unreadable or empty"
        case .internalError: return "internal error (a bug: please report it)"
        case .ioError: return "an output could not be written"
        }
    }
}
