import WidgetQuotaCharts

/// A page block as the Markdown report writes it, so that a section built once as blocks reads
/// the same in report.md and on the web page.
extension PageBlock {
    var markdown: String {
        switch self {
        case .paragraph(let text): return text + "\n\n"
        case .bullets(let items): return items.map { "- " + $0 + "\n" }.joined() + "\n"
        case .heading(let text): return "### " + text + "\n\n"
        case .table(let table, _): return table.markdown + "\n"
        case .chart: return ""  // the Markdown links the chart's file instead
        case .card(let blocks): return blocks.map(\.markdown).joined()
        case .details(let summary, let blocks):
            return "<details><summary>\(summary)</summary>\n\n" + blocks.map(\.markdown).joined() + "</details>\n\n"
        }
    }
}
