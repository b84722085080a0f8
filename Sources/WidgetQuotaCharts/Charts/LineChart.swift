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
    /// The narrow layout's width, its left margin and the height of its plot.
    static let narrowWidth = 400.0, narrowLeft = 58.0, narrowPlotHeight = 240.0

    /// Where the parts of the chart go in a layout.
    struct Frame {
        var width: Double
        var titleX: Double
        var titleLines: [String]
        var subtitleLines: [String]
        var plotLeft: Double, plotTop: Double, plotRight: Double, plotBottom: Double
        /// Where the legend's first row and its notes start, and how wide the notes may run.
        var legendX: Double, legendY: Double, noteWidth: Double
        /// The x axis title's baseline.
        var xTitleY: Double
    }

    func frame(_ layout: ChartLayout) -> Frame {
        switch layout {
        case .wide:
            // Wide enough for the longest name (up to a point) and for a readable note under the legend.
            let legendWidth = min(230, max(Double(series.map(\.name.count).max() ?? 0) * 7 + 44, 160))
            let plotRight = LineChart.width - legendWidth - 16
            let subtitleLines = TextLayout.wrap(subtitle, width: LineChart.width - LineChart.left - 16)
            let plotTop = LineChart.top + 13 * Double(max(subtitleLines.count - 1, 0))
            return Frame(
                width: LineChart.width, titleX: LineChart.left, titleLines: [title], subtitleLines: subtitleLines,
                plotLeft: LineChart.left, plotTop: plotTop, plotRight: plotRight, plotBottom: LineChart.height - LineChart.bottom,
                legendX: plotRight + 16, legendY: plotTop + 8, noteWidth: LineChart.width - plotRight - 24,
                xTitleY: LineChart.height - 14)
        case .narrow:
            // Title and subtitle wrapped to the width, the plot under them, the legend stacked under the plot.
            let w = LineChart.narrowWidth
            let titleLines = TextLayout.wrap(title, width: (w - 24) * 12 / 15)
            let subtitleLines = TextLayout.wrap(subtitle, width: w - 24)
            let plotTop = 24 + 19 * Double(titleLines.count - 1) + 18 + 13 * Double(subtitleLines.count) + 8
            let plotBottom = plotTop + LineChart.narrowPlotHeight
            return Frame(
                width: w, titleX: 12, titleLines: titleLines, subtitleLines: subtitleLines,
                plotLeft: LineChart.narrowLeft, plotTop: plotTop, plotRight: w - 22, plotBottom: plotBottom,
                legendX: 12, legendY: plotBottom + 60, noteWidth: w - 24, xTitleY: plotBottom + 38)
        }
    }

    /// The chart as an SVG document, 820 px wide with the legend beside the plot, or (`narrow`)
    /// 400 px wide with the legend under it, for a phone's screen.
    ///
    /// What the chart cannot show is said beside the legend: values a logarithmic axis cannot
    /// place (zero or below), and point labels left out because every spot for them was taken.
    package func svg(layout: ChartLayout = .wide) -> String {
        let f = frame(layout)
        let (plotLeft, plotTop, plotRight, plotBottom) = (f.plotLeft, f.plotTop, f.plotRight, f.plotBottom)
        let plotWidth = plotRight - plotLeft
        let plotHeight = plotBottom - plotTop
        func px(_ x: Double) -> Double { plotLeft + xScale.position(x) * plotWidth }
        func py(_ y: Double) -> Double { plotBottom - yScale.position(y) * plotHeight }
        // Legend rows, then notes under them; the narrow layout grows to hold them.
        let notes = self.notes()
        let noteLines = notes.flatMap { TextLayout.wrap($0, width: f.noteWidth) }
        let legendEnd = f.legendY + Double(series.count) * (layout == .wide ? 20 : 18) + 10 + 13 * Double(noteLines.count)
        let height = layout == .wide ? LineChart.height : legendEnd + 4

        var c = SVGCanvas(width: f.width, height: height)
        for (i, line) in f.titleLines.enumerated() { c.text(line, f.titleX, 24 + 19 * Double(i), class: "title") }
        let subtitleTop = 42 + 19 * Double(f.titleLines.count - 1)
        for (i, line) in f.subtitleLines.enumerated() { c.text(line, f.titleX, subtitleTop + 13 * Double(i), class: "subtitle") }
        for t in yScale.ticks {
            c.line(plotLeft, py(t), plotRight, py(t), class: "grid")
            c.text(yScale.label(t), plotLeft - 8, py(t) + 4, anchor: .end)
        }
        // A narrow plot labels every other x tick when all of them would not fit.
        let xTicks = xScale.ticks
        let tickRoom = plotWidth / Double(max(xTicks.count - 1, 1))
        let widest = xTicks.map { TextLayout.width(xScale.label($0)) }.max() ?? 0
        let labelEvery = layout == .narrow && widest + 8 > tickRoom ? 2 : 1
        for (k, t) in xTicks.enumerated() {
            c.line(px(t), plotTop, px(t), plotBottom, class: "grid")
            if k % labelEvery == 0 { c.text(xScale.label(t), px(t), plotBottom + 18, anchor: .middle) }
        }
        c.line(plotLeft, plotBottom, plotRight, plotBottom, class: "axis")
        c.line(plotLeft, plotTop, plotLeft, plotBottom, class: "axis")
        c.text(xTitle, (plotLeft + plotRight) / 2, f.xTitleY, anchor: .middle)
        c.text(yTitle, 18, (plotTop + plotBottom) / 2, anchor: .middle, rotate: true)
        let drawnReferences = references.filter { $0.y >= yScale.lower && $0.y <= yScale.upper }
        for r in drawnReferences { c.line(plotLeft, py(r.y), plotRight, py(r.y), class: "reference") }
        let shown = series.map { $0.points.filter { $0.x.isFinite && $0.y.isFinite && onLogScale($0) } }
        // Every marker is placed before any label, so that no label covers a point.
        var labels = LabelPlacer(bounds: (plotLeft, plotTop, plotRight, plotBottom))
        for (s, points) in zip(series, shown) where s.style != .line {
            for p in points { labels.reserve(x: px(p.x), y: py(p.y), radius: 4) }
        }
        var unlabelled = 0
        let pixels = shown.map { $0.map { (px($0.x), py($0.y)) } }
        for (i, (s, points)) in zip(series, shown).enumerated() {
            // A line drawn over an earlier one is dashed, so that the one beneath shows through.
            let under = (0..<i).filter { j in
                series[j].style != .markers && s.style != .markers && pixels[j].count == pixels[i].count && !pixels[i].isEmpty
                    && zip(pixels[j], pixels[i]).allSatisfy { abs($0.0 - $1.0) < 1 && abs($0.1 - $1.1) < 2 }
            }.count
            let cls = s.colour.map { ChartStyle.seriesClass(colour: $0, covering: under) } ?? ChartStyle.seriesClass(i, covering: under)
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
            let y = f.legendY + Double(i) * (layout == .wide ? 20 : 18)
            c.line(f.legendX, y, f.legendX + 24, y, class: "line " + cls)
            c.circle(f.legendX + 12, y, r: 3, class: cls)
            c.text(s.name, f.legendX + 30, y + 4)
        }
        // The limits' labels over the curves (with a halo), so that no curve hides which line is which.
        for r in drawnReferences { c.text(r.label, plotRight - 4, py(r.y) - 4, anchor: .end, class: "reference-label") }
        var lines = noteLines
        if unlabelled > 0 {
            lines += TextLayout.wrap(
                "\(unlabelled) point label\(unlabelled == 1 ? " is" : "s are") left out for want of room beside \(unlabelled == 1 ? "its point" : "their points").",
                width: f.noteWidth)
        }
        var y = f.legendY + Double(series.count) * (layout == .wide ? 20 : 18) + 10
        for line in lines {
            c.text(line, f.legendX, y, class: "note")
            y += 13
        }
        if layout == .narrow { c.height = max(c.height, y + 4) }
        return c.document(title: title, description: subtitle)
    }

    func onLogScale(_ p: ChartPoint) -> Bool { (xScale.kind == .linear || p.x > 0) && (yScale.kind == .linear || p.y > 0) }

    /// What the chart cannot draw, in words: values a log scale cannot place, values that are not numbers.
    func notes() -> [String] {
        var hidden = [String]()
        var unknown = [String]()
        for s in series {
            if s.points.contains(where: { $0.x.isFinite && $0.y.isFinite && !onLogScale($0) }) { hidden.append(s.name) }
            if s.points.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { unknown.append(s.name) }
        }
        var notes = [String]()
        if !hidden.isEmpty {
            notes.append("Not drawn: values of zero or below, which a log scale cannot show (\(hidden.joined(separator: ", "))).")
        }
        if !unknown.isEmpty {
            notes.append("Not drawn: values that are not numbers (\(unknown.joined(separator: ", "))).")
        }
        return notes
    }
}
