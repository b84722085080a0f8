import Foundation
import WidgetQuotaSupport

/// Builds SVG text with fixed-precision coordinates, so the same chart is the same bytes everywhere.
struct SVGCanvas {
    let width: Double
    /// The height; a layout that learns how much it needs while drawing may raise it.
    var height: Double
    private(set) var body = ""

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A coordinate with one decimal place.
    static func n(_ v: Double) -> String { NumberText.plain((v * 10).rounded() / 10, maxFractionDigits: 1) }

    /// Escapes text for XML content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0.
                if c.value < 0x20 && c != "\n" && c != "\t" { out += " " } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, class cls: String) {
        body += "<line class=\"\(cls)\" x1=\"\(Self.n(x1))\" y1=\"\(Self.n(y1))\" x2=\"\(Self.n(x2))\" y2=\"\(Self.n(y2))\"/>\n"
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, class cls: String) {
        body +=
            "<rect class=\"\(cls)\" x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(max(w, 0)))\" height=\"\(Self.n(max(h, 0)))\"/>\n"
    }

    mutating func circle(_ x: Double, _ y: Double, r: Double, class cls: String) {
        body += "<circle class=\"\(cls)\" cx=\"\(Self.n(x))\" cy=\"\(Self.n(y))\" r=\"\(Self.n(r))\"/>\n"
    }

    mutating func polyline(_ points: [(Double, Double)], class cls: String) {
        guard points.count > 1 else { return }
        let text = points.map { "\(Self.n($0.0)),\(Self.n($0.1))" }.joined(separator: " ")
        body += "<polyline class=\"\(cls)\" points=\"\(text)\"/>\n"
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(
        _ s: String, _ x: Double, _ y: Double, anchor: Anchor = .start, class cls: String = "label",
        rotate: Bool = false
    ) {
        let transform = rotate ? " transform=\"rotate(-90 \(Self.n(x)) \(Self.n(y)))\"" : ""
        body +=
            "<text class=\"\(cls)\" x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" text-anchor=\"\(anchor.rawValue)\"\(transform)>\(Self.escape(s))</text>\n"
    }

    /// The whole document: explicit background, light and dark styles, an accessible title.
    func document(title: String, description: String) -> String {
        """
        \(Self.prolog)
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.n(width))" height="\(Self.n(height))" viewBox="0 0 \(Self.n(width)) \(Self.n(height))" role="img" aria-labelledby="title desc">
        <title id="title">\(Self.escape(title))</title>
        <desc id="desc">\(Self.escape(description))</desc>
        \(Self.style)
        <rect class="background" x="0" y="0" width="\(Self.n(width))" height="\(Self.n(height))"/>
        \(body)</svg>

        """
    }

    private static let prolog = #"<?xml version="1.0" encoding="UTF-8"?>"#
    private static let style = "<style>\n\(ChartStyle.css)\n</style>"

    /// A chart document made into an element of a web page: without the XML prolog and the
    /// style sheet (the page carries `ChartStyle.css` once), its title and description ids
    /// prefixed with `id` so that several charts on one page keep unique ids.
    static func embedded(_ document: String, id: String) -> String {
        var svg = document.replacingOccurrences(of: prolog + "\n", with: "").replacingOccurrences(of: style + "\n", with: "")
        svg = svg.replacingOccurrences(of: #"aria-labelledby="title desc""#, with: #"aria-labelledby="\#(id)-title \#(id)-desc""#)
        svg = svg.replacingOccurrences(of: #"<title id="title">"#, with: #"<title id="\#(id)-title">"#)
        svg = svg.replacingOccurrences(of: #"<desc id="desc">"#, with: #"<desc id="\#(id)-desc">"#)
        return svg
    }
}
