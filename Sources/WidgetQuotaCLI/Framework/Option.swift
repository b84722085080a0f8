/// One command-line option: its name, the value it takes, and its help.
///
/// Each command lists its options once; parsing, the usage line and `--help` are all made from
/// that list, so they cannot disagree. Options that several commands share are declared once,
/// below and in `SharedOptions.swift`.
package struct Option: Sendable, Hashable {
    /// The name without its dashes: `scenario` for `--scenario`.
    package let name: String
    /// The value's placeholder (`FILE`, `N`), or nil for a switch that takes no value.
    package let value: String?
    /// What the option does; a line break starts a continuation line in `--help`.
    package let help: String
    /// The option may be given more than once (`--fail-if A --fail-if B`).
    package var repeatable = false
    /// The option names a file the command reads, where `-` is standard input.
    package var readsFile = false
    /// The values the option takes, when they are a fixed list (for shell completion).
    package var choices: [String] = []

    /// An option that takes a value.
    static func valued(_ name: String, _ value: String, _ help: String, repeatable: Bool = false) -> Option {
        Option(name: name, value: value, help: help, repeatable: repeatable)
    }

    /// An option that names a file to read; `-` reads standard input.
    static func input(_ name: String, _ value: String = "FILE", _ help: String) -> Option {
        Option(name: name, value: value, help: help, readsFile: true)
    }

    /// An option that takes no value.
    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, value: nil, help: help)
    }

    /// The option taking one of `values`.
    func choosing(_ values: [String]) -> Option {
        var option = self
        option.choices = values
        return option
    }

    /// `--name VALUE` or `--name`, as the usage line and help show it.
    package var synopsis: String { "--" + name + (value.map { " " + $0 } ?? "") }

    package static func == (a: Option, b: Option) -> Bool { a.name == b.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
