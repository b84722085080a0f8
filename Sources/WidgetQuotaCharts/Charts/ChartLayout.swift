/// How a chart is laid out: 820 px wide for a report's files and a wide page, or 400 px wide for
/// a phone's screen, with its legend under the plot instead of beside it.
package enum ChartLayout: Sendable, CaseIterable {
    case wide, narrow
}
