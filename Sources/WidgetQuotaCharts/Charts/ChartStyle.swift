/// Colours and type for charts, with a dark variant chosen by `prefers-color-scheme`.
package enum ChartStyle {
    /// Series colours (light, dark): GitHub's palette, distinguishable in both modes.
    package static let palette: [(light: String, dark: String)] = [
        ("#0969da", "#58a6ff"), ("#cf222e", "#ff7b72"), ("#1a7f37", "#3fb950"), ("#8250df", "#d2a8ff"),
        ("#bc4c00", "#ffa657"), ("#1b7c83", "#39c5cf"), ("#bf3989", "#ff80c8"), ("#6e7781", "#8b949e"),
    ]

    /// Dash patterns, cycled after the colours so that a ninth series still differs.
    static let dashes = ["", "6 3", "2 3", "8 3 2 3"]

    static var css: String {
        var rules = [
            "text { font-family: -apple-system, BlinkMacSystemFont, \"Segoe UI\", Helvetica, Arial, sans-serif; font-size: 12px; fill: #1f2328; }",
            ".background { fill: #ffffff; }",
            ".title { font-size: 15px; font-weight: 600; }",
            ".subtitle, .note { font-size: 11px; fill: #59636e; }",
            ".axis { stroke: #59636e; stroke-width: 1; }",
            ".grid { stroke: #d1d9e0; stroke-width: 1; }",
            ".reference { stroke: #9a6700; stroke-width: 1; stroke-dasharray: 4 3; }",
            ".reference-label { font-size: 11px; fill: #9a6700; }",
            // A halo in the background colour keeps labels readable where they cross lines.
            ".reference-label, .note { paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }",
            ".line { fill: none; stroke-width: 2; stroke-linejoin: round; }",
            ".line.thin { stroke-width: 1.25; }",
            ".bar-low { fill: #1a7f37; } .bar-high { fill: #cf222e; }",
            ".center { stroke: #1f2328; stroke-width: 1.5; }",
        ]
        var dark = [
            "text { fill: #e6edf3; }", ".background { fill: #0d1117; }", ".subtitle, .note { fill: #9198a1; }",
            ".axis { stroke: #9198a1; }", ".grid { stroke: #30363d; }", ".reference { stroke: #d29922; }",
            ".reference-label { fill: #d29922; }", ".reference-label, .note { stroke: #0d1117; }",
            ".bar-low { fill: #3fb950; } .bar-high { fill: #ff7b72; }",
            ".center { stroke: #e6edf3; }",
        ]
        for (i, colour) in palette.enumerated() {
            rules.append(".s\(i) { stroke: \(colour.light); fill: \(colour.light); } .line.s\(i) { fill: none; }")
            dark.append(".s\(i) { stroke: \(colour.dark); fill: \(colour.dark); } .line.s\(i) { fill: none; }")
        }
        for (i, dash) in dashes.enumerated() where !dash.isEmpty {
            rules.append(".line.d\(i) { stroke-dasharray: \(dash); }")
        }
        return rules.joined(separator: "\n") + "\n@media (prefers-color-scheme: dark) {\n  "
            + dark.joined(separator: "\n  ") + "\n}"
    }

    /// Palette colours for `series` series and, when `reservingOne`, one more that none of them
    /// uses (a sweep line beside the designs' points). The series take the other colours in turn,
    /// repeating only when there are more series than colours left.
    package static func colours(series: Int, reservingOne: Bool) -> (series: [Int], reserved: Int?) {
        let reserved = reservingOne ? palette.count - 1 : nil
        let available = palette.count - (reservingOne ? 1 : 0)
        return ((0..<max(series, 0)).map { $0 % available }, reserved)
    }

    /// The CSS classes of palette colour `colour`, drawn over `covering` earlier lines it coincides with.
    static func seriesClass(colour: Int, covering: Int = 0) -> String {
        let dash = covering % dashes.count
        return "s\(colour % palette.count)" + (dash > 0 ? " d\(dash)" : "")
    }

    /// The CSS classes of series `i`, drawn over `covering` earlier lines it coincides with.
    static func seriesClass(_ i: Int, covering: Int = 0) -> String {
        let dash = (i / palette.count + covering) % dashes.count
        return "s\(i % palette.count)" + (dash > 0 ? " d\(dash)" : "")
    }
}
