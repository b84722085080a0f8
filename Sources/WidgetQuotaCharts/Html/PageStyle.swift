/// The web page's CSS and its one small script.
///
/// The charts' own rules (`ChartStyle.css`) sit beside these on the page; the page's class names
/// (`lede`, `toc`, `card`, `table-box`, `chart`, `num`) differ from the charts' (`title`, `note`,
/// `line`, `s0`…), so neither styles the other's elements.
enum PageStyle {
    static let css = """
        :root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --rule: #d1d9e0; --box: #f6f8fa; --accent: #0969da; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --rule: #30363d; --box: #161b22; --accent: #58a6ff; }
        }
        *, *::before, *::after { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
        main { max-width: 80rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
        h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 .25rem; }
        h2 { font-size: 1.35rem; line-height: 1.3; margin: 2.5rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--rule); }
        h3 { font-size: 1.1rem; margin: 1.25rem 0 .5rem; }
        p, li { max-width: 52rem; overflow-wrap: break-word; }
        .lede { color: var(--muted); margin-top: 0; }
        a { color: var(--accent); }
        code { font: .875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--box); padding: .1em .3em; border-radius: 4px; overflow-wrap: anywhere; }
        .toc { border: 1px solid var(--rule); border-radius: 6px; padding: .5rem 1rem; margin: 1rem 0; background: var(--box); }
        .toc ol { margin: 0; padding-left: 1.25rem; columns: 15rem; column-gap: 2rem; }
        .toc li { break-inside: avoid; }
        .card { border: 1px solid var(--rule); border-left: 4px solid var(--accent); border-radius: 6px; padding: .1rem 1rem; margin: 1rem 0; }
        .card h3 { margin-top: .75rem; }
        .table-box { max-width: 100%; overflow-x: auto; margin: .75rem 0 1rem; border: 1px solid var(--rule); border-radius: 6px; }
        .table-box:focus { outline: 2px solid var(--accent); outline-offset: 2px; }
        table { border-collapse: collapse; width: 100%; font-size: .8125rem; font-variant-numeric: tabular-nums; }
        th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
        td { overflow-wrap: break-word; }
        td:first-child, th:first-child { white-space: nowrap; }
        th { background: var(--box); font-weight: 600; }
        /* The key column stays in view while a wide table scrolls sideways. */
        .table-box td:first-child { position: sticky; left: 0; background: var(--bg); box-shadow: 1px 0 0 var(--rule); }
        .table-box th:first-child { position: sticky; left: 0; z-index: 1; box-shadow: 1px 0 0 var(--rule); }
        th.num, td.num { text-align: right; }
        tbody tr:last-child td { border-bottom: 0; }
        th button { all: unset; cursor: pointer; text-align: inherit; }
        th button:focus-visible { outline: 2px solid var(--accent); }
        th button::after { content: "\\a0\\2195"; color: var(--muted); font-weight: 400; }
        th[aria-sort="ascending"] button::after { content: "\\a0\\2191"; }
        th[aria-sort="descending"] button::after { content: "\\a0\\2193"; }
        figure.chart { margin: 1rem 0; max-width: 100%; overflow-x: auto; }
        figure.chart svg { display: block; width: 100%; min-width: 600px; max-width: 820px; height: auto; border: 1px solid var(--rule); border-radius: 6px; }
        figure.chart .chart-narrow { display: none; }
        figure.chart .chart-narrow svg { min-width: 0; max-width: 480px; }
        @media screen and (max-width: 640px) {
          figure.chart .chart-wide { display: none; }
          figure.chart .chart-narrow { display: block; }
        }
        details { margin: 1rem 0; }
        summary { cursor: pointer; font-weight: 600; }
        @media print {
          :root { --fg: #000000; --muted: #333333; --bg: #ffffff; --rule: #bbbbbb; --box: #f2f2f2; --accent: #000000; }
          body { font-size: 10pt; }
          main { max-width: none; padding: 0; }
          .toc { display: none; }
          h2 { break-after: avoid; page-break-after: avoid; }
          h3 { break-after: avoid; page-break-after: avoid; }
          .card, figure.chart, tr { break-inside: avoid; page-break-inside: avoid; }
          .table-box { overflow: visible; border: 0; }
          .table-box td:first-child, .table-box th:first-child { position: static; box-shadow: none; }
          table { font-size: 8pt; }
          th button::after { content: none; }
          td:first-child, th:first-child { white-space: normal; }
          a { color: inherit; text-decoration: none; }
        }
        """

    /// Sorts a table by a click on its column header (numbers by value, 1.2k and $3.40 too) and
    /// opens folded details for printing. Without it the page is the same, unsorted.
    static let script = """
        (function () {
          function key(cell) {
            var text = cell.textContent.trim().replace(/\\u2212/g, "-");
            var m = /^(-?)\\$?\\s*([0-9][0-9,]*(?:\\.[0-9]+)?)\\s*([kMBT%]?)/.exec(text);
            if (!m) { return null; }
            var scale = { k: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[3]] || 1;
            return (m[1] ? -1 : 1) * parseFloat(m[2].replace(/,/g, "")) * scale;
          }
          function compare(a, b) {
            var x = key(a), y = key(b);
            if (x !== null && y !== null) { return x - y; }
            if (x !== null) { return -1; }
            if (y !== null) { return 1; }
            return a.textContent.localeCompare(b.textContent);
          }
          Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
            var heads = table.tHead.rows[0].cells;
            Array.prototype.forEach.call(heads, function (th, column) {
              var button = document.createElement("button");
              button.type = "button";
              while (th.firstChild) { button.appendChild(th.firstChild); }
              th.appendChild(button);
              button.addEventListener("click", function () {
                var order = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
                Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
                th.setAttribute("aria-sort", order);
                var body = table.tBodies[0];
                var rows = Array.prototype.slice.call(body.rows);
                rows.sort(function (a, b) {
                  var c = compare(a.cells[column], b.cells[column]);
                  return order === "ascending" ? c : -c;
                });
                rows.forEach(function (row) { body.appendChild(row); });
              });
            });
          });
          window.addEventListener("beforeprint", function () {
            Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
          });
        })();
        """
}
