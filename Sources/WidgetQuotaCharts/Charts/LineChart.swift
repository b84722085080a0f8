import Foundation

/// One point of a chart series; `label` is written beside the point in scatter charts.
package struct ChartPoint: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var label: String?
    package init(x: Double, y: Double, label: String? = nil) {
        self.x = x
        self.y = y
        self.label = label
    }
}

/// A named series of points, drawn as a line, as markers, or both.
package struct ChartSeries: Sendable, Equatable {
    package enum Style: Sendable, Equatable { case line, markers, lineAndMarkers }
    package var name: String
    package var points: [ChartPoint]
    package var style: Style
    /// The palette colour to draw it in; nil takes the series' position in the chart.
    package var colour: Int?
    package init(name: String, points: [ChartPoint], style: Style = .lineAndMarkers, colour: Int? = nil) {
        self.name = name
        self.points = points
        self.style = style
        self.colour = colour
    }
}

/// A labelled horizontal line, such as a quota limit.
package struct ReferenceLine: Sendable, Equatable {
    package var label: String
    package var y: Double
    package init(label: String, y: Double) {
        self.label = label
        self.y = y
    }
}

/// An x–y chart with axes, grid, legend and optional reference lines, drawn as SVG.
package struct LineChart: Sendable {
    package var title: String
    package var subtitle: String
    package var xTitle: String
    package var yTitle: String
    package var xScale: AxisScale
    package var yScale: AxisScale
    package var series: [ChartSeries]
    /// Drawn only where they fall inside the y axis.
    package var references: [ReferenceLine]

    package init(
        title: String, subtitle: String, xTitle: String, yTitle: String, xScale: AxisScale, yScale: AxisScale,
        series: [ChartSeries], references: [ReferenceLine] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xTitle = xTitle
        self.yTitle = yTitle
        self.xScale = xScale
        self.yScale = yScale
        self.series = series
        self.references = references
    }

    package static let width = 820.0, height = 460.0
    static let left = 84.0, top = 64.0, bottom = 58.0

    /// The chart as an SVG document.
    ///
    /// What the chart cannot show is said beside the legend: values a logarithmic axis cannot
    /// place (zero or below), and point labels left out because every spot for them was taken.
    package func svg() -> String {
        // Wide enough for the longest name (up to a point) and for a readable note under the legend.
        let legendWidth = min(230, max(Double(series.map(\.name.count).max() ?? 0) * 7 + 44, 160))
        let plotRight = LineChart.width - legendWidth - 16
        let subtitleLines = TextLayout.wrap(subtitle, width: LineChart.width - LineChart.left - 16)
        let plotTop = LineChart.top + 13 * Double(max(subtitleLines.count - 1, 0))
        let plotBottom = LineChart.height - LineChart.bottom
        let plotWidth = plotRight - LineChart.left
        let plotHeight = plotBottom - plotTop
        func px(_ x: Double) -> Double { LineChart.left + xScale.position(x) * plotWidth }
        func py(_ y: Double) -> Double { plotBottom - yScale.position(y) * plotHeight }

        var c = SVGCanvas(width: LineChart.width, height: LineChart.height)
        c.text(title, LineChart.left, 24, class: "title")
        for (i, line) in subtitleLines.enumerated() { c.text(line, LineChart.left, 42 + 13 * Double(i), class: "subtitle") }
        for t in yScale.ticks {
            c.line(LineChart.left, py(t), plotRight, py(t), class: "grid")
            c.text(yScale.label(t), LineChart.left - 8, py(t) + 4, anchor: .end)
        }
        for t in xScale.ticks {
            c.line(px(t), plotTop, px(t), plotBottom, class: "grid")
            c.text(xScale.label(t), px(t), plotBottom + 18, anchor: .middle)
        }
        c.line(LineChart.left, plotBottom, plotRight, plotBottom, class: "axis")
        c.line(LineChart.left, plotTop, LineChart.left, plotBottom, class: "axis")
        c.text(xTitle, (LineChart.left + plotRight) / 2, LineChart.height - 14, anchor: .middle)
        c.text(yTitle, 18, (plotTop + plotBottom) / 2, anchor: .middle, rotate: true)
        let drawnReferences = references.filter { $0.y >= yScale.lower && $0.y <= yScale.upper }
        for r in drawnReferences { c.line(LineChart.left, py(r.y), plotRight, py(r.y), class: "reference") }
        func onLogScale(_ p: ChartPoint) -> Bool { (xScale.kind == .linear || p.x > 0) && (yScale.kind == .linear || p.y > 0) }
        let shown = series.map { $0.points.filter { $0.x.isFinite && $0.y.isFinite && onLogScale($0) } }
        // Every marker is placed before any label, so that no label covers a point.
        var labels = LabelPlacer(bounds: (LineChart.left, plotTop, plotRight, plotBottom))
        for (s, points) in zip(series, shown) where s.style != .line {
            for p in points { labels.reserve(x: px(p.x), y: py(p.y), radius: 4) }
        }
        var hidden = [String]()
        var unknown = [String]()
        var unlabelled = 0
        let pixels = shown.map { $0.map { (px($0.x), py($0.y)) } }
        for (i, (s, points)) in zip(series, shown).enumerated() {
            // A line drawn over an earlier one is dashed, so that the one beneath shows through.
            let under = (0..<i).filter { j in
                series[j].style != .markers && s.style != .markers && pixels[j].count == pixels[i].count && !pixels[i].isEmpty
                    && zip(pixels[j], pixels[i]).allSatisfy { abs($0.0 - $1.0) < 1 && abs($0.1 - $1.1) < 2 }
            }.count
            let cls = s.colour.map { ChartStyle.seriesClass(colour: $0, covering: under) } ?? ChartStyle.seriesClass(i, covering: under)
            if s.points.contains(where: { $0.x.isFinite && $0.y.isFinite && !onLogScale($0) }) { hidden.append(s.name) }
            if s.points.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { unknown.append(s.name) }
            // Dense series (a value a minute) get a thinner line so that overlapping curves stay readable.
            let weight = points.count > 200 ? " thin" : ""
            // Values below the axis's range (a log scale's floor) are drawn on the axis, not past it.
            if s.style != .markers {
                c.polyline(points.map { (px($0.x), min(max(py($0.y), plotTop), plotBottom)) }, class: "line " + cls + weight)
            }
            if s.style != .line {
                for p in points {
                    c.circle(px(p.x), py(p.y), r: 3.5, class: cls)
                    if let label = p.label, !labels.place(label, x: px(p.x), y: py(p.y), on: &c) { unlabelled += 1 }
                }
            }
            let y = plotTop + 8 + Double(i) * 20
            c.line(plotRight + 16, y, plotRight + 40, y, class: "line " + cls)
            c.circle(plotRight + 28, y, r: 3, class: cls)
            c.text(s.name, plotRight + 46, y + 4)
        }
        // The limits' labels over the curves (with a halo), so that no curve hides which line is which.
        for r in drawnReferences { c.text(r.label, plotRight - 4, py(r.y) - 4, anchor: .end, class: "reference-label") }
        var notes = [String]()
        if !hidden.isEmpty {
            notes.append("Not drawn: values of zero or below, which a log scale cannot show (\(hidden.joined(separator: ", "))).")
        }
        if !unknown.isEmpty {
            notes.append("Not drawn: values that are not numbers (\(unknown.joined(separator: ", "))).")
        }
        if unlabelled > 0 {
            notes.append(
                "\(unlabelled) point label\(unlabelled == 1 ? " is" : "s are") left out for want of room beside \(unlabelled == 1 ? "its point" : "their points")."
            )
        }
        var y = plotTop + 8 + Double(series.count) * 20 + 10
        for line in notes.flatMap({ TextLayout.wrap($0, width: LineChart.width - plotRight - 24) }) {
            c.text(line, plotRight + 16, y, class: "note")
            y += 13
        }
        return c.document(title: title, description: subtitle)
    }
}
