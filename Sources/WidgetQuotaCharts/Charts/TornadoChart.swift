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

    /// The chart as an SVG document.
    package func svg() -> String {
        let width = 820.0
        let left = 250.0
        let right = 60.0
        let top = 84.0
        let rowHeight = 30.0
        let height = top + Double(max(bars.count, 1)) * rowHeight + 64
        let values = bars.flatMap { [$0.low, $0.high] } + [center]
        let scale = AxisScale(kind: .linear, covering: values, includeZero: false)
        let plotRight = width - right
        let plotBottom = height - 64
        func px(_ v: Double) -> Double { left + scale.position(v) * (plotRight - left) }

        var c = SVGCanvas(width: width, height: height)
        c.text(title, 16, 24, class: "title")
        c.text(subtitle, 16, 42, class: "subtitle")
        c.rect(left, 54, 12, 12, class: "bar-low")
        c.text(lowLegend, left + 18, 64)
        c.rect(left + 220, 54, 12, 12, class: "bar-high")
        c.text(highLegend, left + 238, 64)
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
            let y = top + Double(i) * rowHeight
            c.text(bar.label, left - 10, y + rowHeight / 2 + 2, anchor: .end)
            if bar.low == center && bar.high == center {
                c.text("no effect", px(center) + 6, y + rowHeight / 2 + 2, class: "note")
                continue
            }
            // The farther end first, so a nearer end on the same side stays visible on top of it.
            let ends = [(bar.low, "bar-low"), (bar.high, "bar-high")].sorted { abs($0.0 - center) > abs($1.0 - center) }
            let sameSide = (bar.low - center) * (bar.high - center) > 0
            for (k, (value, cls)) in ends.enumerated() {
                let a = px(min(value, center))
                let b = px(max(value, center))
                c.rect(a, y + 6, b - a, rowHeight - 14, class: cls)
                if sameSide && k == 1 { continue }
                // Beyond the bar's end, unless that would run into the assumption's name or off the
                // canvas: then just inside the end of the bar.
                let text = AxisScale.compact(value)
                let room = TextLayout.width(text) + 6
                let low = value < center
                let inside = low ? a - 4 - room < left : b + 4 + room > width
                let x = low ? (inside ? a + 4 : a - 4) : (inside ? b - 4 : b + 4)
                c.text(text, x, y + rowHeight / 2 + 2, anchor: low == inside ? .start : .end, class: "note")
            }
        }
        c.line(px(center), top - 10, px(center), plotBottom, class: "center")
        return c.document(title: title, description: subtitle)
    }
}
