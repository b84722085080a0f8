/// Places point labels beside their points, trying a few positions so that labels cover neither
/// each other nor the points, and stay inside the plot.
struct LabelPlacer {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)
    private let bounds: Box
    private var taken: [Box] = []

    /// - Parameter bounds: the area labels must stay in (the plot).
    init(bounds: Box) { self.bounds = bounds }

    /// Marks a point's marker as covered, so that no label is put over it.
    mutating func reserve(x: Double, y: Double, radius: Double) {
        taken.append((x - radius, y - radius, x + radius, y + radius))
    }

    /// Writes `text` beside the point at the first free position; returns false, writing
    /// nothing, when every position would cover something or leave the plot.
    mutating func place(_ text: String, x: Double, y: Double, on canvas: inout SVGCanvas) -> Bool {
        let w = TextLayout.width(text)
        let h = 12.0
        // (dx, dy, anchored at the end): right-above, right-below, left-above, left-below, further out.
        let candidates: [(Double, Double, Bool)] = [
            (7, -6, false), (7, 14, false), (-7, -6, true), (-7, 14, true),
            (7, -20, false), (7, 28, false), (-7, -20, true), (-7, 28, true),
        ]
        for (dx, dy, atEnd) in candidates {
            let x0 = atEnd ? x + dx - w : x + dx
            let b: Box = (x0, y + dy - h, x0 + w, y + dy + 2)
            let inside = b.x0 >= bounds.x0 && b.x1 <= bounds.x1 + 12 && b.y0 >= bounds.y0 - 4 && b.y1 <= bounds.y1
            guard inside, !taken.contains(where: { $0.x0 < b.x1 && b.x0 < $0.x1 && $0.y0 < b.y1 && b.y0 < $0.y1 }) else { continue }
            taken.append(b)
            canvas.text(text, x + dx, y + dy, anchor: atEnd ? .end : .start, class: "note")
            return true
        }
        return false
    }
}

/// Approximate text metrics for chart text (11–12 px sans-serif), enough to keep text apart.
package enum TextLayout {
    /// Approximate width of `text` at the note font size.
    package static func width(_ text: String) -> Double { Double(text.count) * 6.2 }

    /// `text` broken at spaces into lines no wider than `width` (a longer word keeps its own line).
    static func wrap(_ text: String, width: Double) -> [String] {
        var lines = [String]()
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if !line.isEmpty && TextLayout.width(candidate) > width {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
