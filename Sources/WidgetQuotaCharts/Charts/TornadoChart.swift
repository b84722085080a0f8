import Foundation

/// One bar of a tornado chart: the result with an assumption at its low and at its high end.
package struct TornadoBar: Sendable, Equatable {
    package var label: String
    package var low: Double
    package var high: Double
    package init(label: String, low: Double, high: Double) {
        self.label = label
        self.low = low
        self.high = high
    }
}

/// A sensitivity tornado: one horizontal bar per assumption around the central result, widest first.
package struct TornadoChart: Sendable {
    package var title: String
    package var subtitle: String
    package var valueTitle: String
    package var center: Double
    package var bars: [TornadoBar]
    package var lowLegend: String
    package var highLegend: String

    package init(
        title: String, subtitle: String, valueTitle: String, center: Double, bars: [TornadoBar],
        lowLegend: String = "assumption at its p5", highLegend: String = "assumption at its p95"
    ) {
        self.title = title
        self.subtitle = subtitle
        self.valueTitle = valueTitle
        self.center = center
        self.bars = bars
        self.lowLegend = lowLegend
        self.highLegend = highLegend
    }

    /// The chart as an SVG document: 820 px wide with each assumption's name beside its bar, or
    /// (`narrow`) 400 px wide with the name above it, for a phone's screen.
    package func svg(layout: ChartLayout = .wide) -> String {
        let narrow = layout == .narrow
        let width = narrow ? 400.0 : 820.0
        let left = narrow ? 16.0 : 250.0
        let right = narrow ? 16.0 : 60.0
        let titleLines = narrow ? TextLayout.wrap(title, width: (width - 24) * 12 / 15) : [title]
        let subtitleLines = narrow ? TextLayout.wrap(subtitle, width: width - 24) : [subtitle]
        let head = 19 * Double(titleLines.count - 1) + 13 * Double(subtitleLines.count - 1)
        let legendY = 54 + head
        let top = (narrow ? 92.0 : 84.0) + head
        // Narrow: the assumption's name on a line of its own above its bar.
        let nameRoom = narrow ? 16.0 : 0
        let rowHeight = 30.0 + nameRoom
        let height = top + Double(max(bars.count, 1)) * rowHeight + 64
        let values = bars.flatMap { [$0.low, $0.high] } + [center]
        let scale = AxisScale(kind: .linear, covering: values, includeZero: false)
        let plotRight = width - right
        let plotBottom = height - 64
        func px(_ v: Double) -> Double { left + scale.position(v) * (plotRight - left) }

        var c = SVGCanvas(width: width, height: height)
        for (i, line) in titleLines.enumerated() { c.text(line, 16, 24 + 19 * Double(i), class: "title") }
        for (i, line) in subtitleLines.enumerated() {
            c.text(line, 16, 42 + 19 * Double(titleLines.count - 1) + 13 * Double(i), class: "subtitle")
        }
        let secondLegend = narrow ? (x: left, y: legendY + 18) : (x: left + 220, y: legendY)
        c.rect(left, legendY, 12, 12, class: "bar-low")
        c.text(lowLegend, left + 18, legendY + 10)
        c.rect(secondLegend.x, secondLegend.y, 12, 12, class: "bar-high")
        c.text(highLegend, secondLegend.x + 18, secondLegend.y + 10)
        for t in scale.ticks {
            c.line(px(t), top - 6, px(t), plotBottom, class: "grid")
            c.text(scale.label(t), px(t), plotBottom + 18, anchor: .middle)
        }
        c.line(left, plotBottom, plotRight, plotBottom, class: "axis")
        c.text(valueTitle, (left + plotRight) / 2, height - 16, anchor: .middle)
        if bars.isEmpty {
            c.text("No uncertain assumptions: every value in the scenario is fixed.", left, top + 18, class: "note")
        }
        for (i, bar) in bars.enumerated() {
            let y = top + Double(i) * rowHeight + nameRoom
            if narrow {
                c.text(bar.label, left, y - 2)
            } else {
                c.text(bar.label, left - 10, y + rowHeight / 2 + 2, anchor: .end)
            }
            let middle = y + (rowHeight - nameRoom) / 2 + 2
            if bar.low == center && bar.high == center {
                c.text("no effect", px(center) + 6, middle, class: "note")
                continue
            }
            // The farther end first, so a nearer end on the same side stays visible on top of it.
            let ends = [(bar.low, "bar-low"), (bar.high, "bar-high")].sorted { abs($0.0 - center) > abs($1.0 - center) }
            let sameSide = (bar.low - center) * (bar.high - center) > 0
            for (k, (value, cls)) in ends.enumerated() {
                let a = px(min(value, center))
                let b = px(max(value, center))
                c.rect(a, y + 6, b - a, rowHeight - nameRoom - 14, class: cls)
                if sameSide && k == 1 { continue }
                // Beyond the bar's end, unless that would run into the assumption's name or off the
                // canvas: then just inside the end of the bar.
                let text = AxisScale.compact(value)
                let room = TextLayout.width(text) + 6
                let low = value < center
                let inside = low ? a - 4 - room < left : b + 4 + room > width
                let x = low ? (inside ? a + 4 : a - 4) : (inside ? b - 4 : b + 4)
                c.text(text, x, middle, anchor: low == inside ? .start : .end, class: "note")
            }
        }
        c.line(px(center), top - 10, px(center), plotBottom, class: "center")
        return c.document(title: title, description: subtitle)
    }
}
