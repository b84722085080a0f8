import Foundation

/// What a rendered SVG chart says, read back for the chart tests of every layer.
package enum SVGTexts {
    /// The text elements of an SVG: class, position, anchor and content.
    package static func texts(_ svg: String) -> [(cls: String, x: Double, y: Double, anchor: String, text: String)] {
        let pattern = #"<text class="([^"]*)" x="([^"]*)" y="([^"]*)" text-anchor="([^"]*)"[^>]*>([^<]*)</text>"#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { m in
            func group(_ i: Int) -> String { String(svg[Range(m.range(at: i), in: svg)!]) }
            return (group(1), Double(group(2))!, Double(group(3))!, group(4), group(5))
        }
    }
}
