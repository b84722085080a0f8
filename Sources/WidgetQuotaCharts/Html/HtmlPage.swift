import Foundation
import WidgetQuotaSupport

/// One block of a web page's section, shown in order.
package enum PageBlock {
    /// A paragraph with the report's emphasis marks (see `HtmlText.inline`).
    case paragraph(String)
    /// A bulleted list; each item may carry emphasis marks.
    case bullets([String])
    /// A subheading (`h3`) with its own anchor.
    case heading(String)
    /// A table in a box of its own that scrolls sideways when it is wider than the page;
    /// `label` names it for screen readers.
    case table(MarkdownTable, label: String)
    /// An SVG chart drawn inline, and its narrow layout for a phone's screen, shown instead of it
    /// on a narrow page; `id` must be unique on the page.
    case chart(svg: String, narrow: String?, id: String)
    /// A boxed group, such as one design's verdict.
    case card([PageBlock])
    /// Content folded under a summary line; opened for printing.
    case details(summary: String, [PageBlock])
}

/// One section of a web page: an `h2` and its blocks.
package struct PageSection {
    var title: String
    var blocks: [PageBlock]

    package init(title: String, blocks: [PageBlock]) {
        self.title = title
        self.blocks = blocks
    }
}

/// A self-contained web page: inline CSS and SVG, no network, no external fonts; a small inline
/// script sorts tables by a click on a column header, and the page reads fully without it.
package struct HtmlPage {
    var title: String
    /// A line under the title.
    var lede: String
    var sections: [PageSection]

    package init(title: String, lede: String, sections: [PageSection]) {
        self.title = title
        self.lede = lede
        self.sections = sections
    }

    /// The page as one HTML document. Same page, same bytes.
    package func render() -> String {
        var anchors = Anchors()
        let ids = sections.map { anchors.unique($0.title) }
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>\(HtmlText.escape(title))</title>
            <style>
            \(PageStyle.css)
            \(ChartStyle.css)
            </style>
            </head>
            <body>
            <main>
            <header>
            <h1>\(HtmlText.escape(title))</h1>
            <p class="lede">\(HtmlText.inline(lede))</p>
            </header>

            """
        html += "<nav class=\"toc\" aria-label=\"Sections\"><ol>\n"
        for (section, id) in zip(sections, ids) {
            html += "<li><a href=\"#\(id)\">\(HtmlText.escape(section.title))</a></li>\n"
        }
        html += "</ol></nav>\n"
        for (section, id) in zip(sections, ids) {
            html += "\n<section id=\"\(id)\">\n<h2>\(HtmlText.inline(section.title))</h2>\n"
            for block in section.blocks { html += render(block, anchors: &anchors) }
            html += "</section>\n"
        }
        html += "</main>\n<script>\n\(PageStyle.script)\n</script>\n</body>\n</html>\n"
        return html
    }

    private func render(_ block: PageBlock, anchors: inout Anchors) -> String {
        switch block {
        case .paragraph(let text):
            return "<p>\(HtmlText.inline(text))</p>\n"
        case .bullets(let items):
            return "<ul>\n" + items.map { "<li>\(HtmlText.inline($0))</li>\n" }.joined() + "</ul>\n"
        case .heading(let text):
            return "<h3 id=\"\(anchors.unique(text))\">\(HtmlText.inline(text))</h3>\n"
        case .table(let table, let label):
            return Self.table(table, label: label)
        case .chart(let svg, let narrow, let id):
            guard let narrow else { return "<figure class=\"chart\">\n" + SVGCanvas.embedded(svg, id: id) + "</figure>\n" }
            return "<figure class=\"chart\">\n<div class=\"chart-wide\">\n" + SVGCanvas.embedded(svg, id: id)
                + "</div>\n<div class=\"chart-narrow\">\n" + SVGCanvas.embedded(narrow, id: id + "-narrow") + "</div>\n</figure>\n"
        case .card(let blocks):
            return "<div class=\"card\">\n" + blocks.map { render($0, anchors: &anchors) }.joined() + "</div>\n"
        case .details(let summary, let blocks):
            return "<details>\n<summary>\(HtmlText.inline(summary))</summary>\n" + blocks.map { render($0, anchors: &anchors) }.joined()
                + "</details>\n"
        }
    }

    /// A table in its own scrolling box; numeric columns are right-aligned, tables of three rows
    /// or more are sortable when the script runs.
    static func table(_ t: MarkdownTable, label: String) -> String {
        let numeric = t.alignments.map { $0 == .right }
        func cls(_ column: Int) -> String { numeric[column] ? " class=\"num\"" : "" }
        var html = "<div class=\"table-box\" role=\"region\" tabindex=\"0\" aria-label=\"\(HtmlText.escape(label))\">\n"
        html += t.rows.count >= 3 ? "<table class=\"sortable\">\n" : "<table>\n"
        html += "<thead><tr>" + t.header.indices.map { "<th scope=\"col\"\(cls($0))>\(HtmlText.inline(t.header[$0]))</th>" }.joined()
        html += "</tr></thead>\n<tbody>\n"
        for row in t.rows {
            html += "<tr>" + row.indices.map { "<td\(cls($0))>\(HtmlText.inline(row[$0]))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n"
    }

    /// Fragment identifiers, made unique on the page by a numeric suffix.
    package struct Anchors {
        private var used = Set<String>()

        package init() {}

        package mutating func unique(_ title: String) -> String {
            let base = HtmlText.anchor(title)
            var id = base
            var n = 2
            while used.contains(id) {
                id = base + "-\(n)"
                n += 1
            }
            used.insert(id)
            return id
        }
    }
}
