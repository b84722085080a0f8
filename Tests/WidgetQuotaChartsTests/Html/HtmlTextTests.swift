import Foundation
import Testing
import WidgetQuotaCharts

/// Text on the web page: escaped before anything else, emphasis marks as elements.
@Suite("HTML text") struct HtmlTextTests {
    @Test("markup characters are escaped, in content and attributes")
    func markupIsEscaped() {
        #expect(HtmlText.escape(#"<b a="x">&'</b>"#) == "&lt;b a=&quot;x&quot;&gt;&amp;&#39;&lt;/b&gt;")
        #expect(HtmlText.escape("plain text 1,000") == "plain text 1,000")
        #expect(!HtmlText.escape("a\u{1B}[31mb").contains("\u{1B}"), "no control character reaches the page")
    }

    @Test("emphasis marks become elements, and the text inside them is escaped too")
    func emphasisMarksBecomeElements() {
        #expect(HtmlText.inline("**1,000 users: tier2**, $5 a month") == "<strong>1,000 users: tier2</strong>, $5 a month")
        #expect(HtmlText.inline("Rows marked *projected* are scaled") == "Rows marked <em>projected</em> are scaled")
        #expect(HtmlText.inline("set `a<b` first") == "set <code>a&lt;b</code> first")
        #expect(HtmlText.inline("**`x` and *y* z**") == "<strong><code>x</code> and <em>y</em> z</strong>")
        #expect(HtmlText.inline("**<script>**") == "<strong>&lt;script&gt;</strong>")
    }

    @Test("a mark without its partner stays as written and opens no element")
    func unpairedMarksStay() {
        #expect(HtmlText.inline("2 * 3 = 6") == "2 * 3 = 6")
        #expect(HtmlText.inline("**unclosed") == "**unclosed")
        #expect(HtmlText.inline("a ` b") == "a ` b")
        #expect(HtmlText.inline("**") == "**")
    }

    @Test("anchors are lower-case words joined by hyphens, and unique on a page")
    func anchors() {
        #expect(HtmlText.anchor("Freshness: what users see at a glance") == "freshness-what-users-see-at-a-glance")
        #expect(HtmlText.anchor("<>") == "section")
        var anchors = HtmlPage.Anchors()
        #expect(["Cost", "Cost", "cost"].map { anchors.unique($0) } == ["cost", "cost-2", "cost-3"])
    }
}
