#!/usr/bin/env bash
# Checks a report's web page in a real browser: renders it in headless Chromium at 1280 px (a
# laptop) and 390 px (a phone) wide, writes a screenshot of each, and fails on a console error, a
# horizontal overflow of the page, or chart text that runs into other chart text.
#
#   scripts/check-page.sh [PAGE] [OUTDIR]     # defaults: Reports/report.html .build/check-page
#
# Installs Chromium from the system packages (apt-get) when no Chromium or Chrome is found.
# Exit status: 0 when both widths pass, 1 when a check fails, 2 when the browser cannot run.
set -euo pipefail

page=${1:-Reports/report.html}
out=${2:-.build/check-page}
[ -f "$page" ] || { echo "check-page: no page at $page (run 'swift run -c release widget-quota report' first)" >&2; exit 2; }
page="$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"

find_browser() {
    for b in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return 0; fi
    done
    return 1
}

if ! browser=$(find_browser); then
    echo "check-page: installing Chromium from the system packages" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # A failed install is "cannot run" (2), not a failed check.
    { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium; } >&2 || true
    browser=$(find_browser) || { echo "check-page: Chromium is not available after installing" >&2; exit 2; }
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The page with a probe in front of its own script: it records errors (script errors, console.error,
# blocked loads), then after load measures the page's width and the chart text boxes, and writes
# its findings into the document title, which --dump-dom prints.
cat > "$work/probe.html" <<'JS'
<script>
(function () {
  var problems = [];
  window.addEventListener("error", function (e) { problems.push("script error: " + e.message); });
  window.addEventListener("securitypolicyviolation", function (e) { problems.push("blocked: " + e.blockedURI); });
  var consoleError = console.error;
  console.error = function () { problems.push("console.error: " + Array.prototype.join.call(arguments, " ")); consoleError.apply(console, arguments); };
  window.addEventListener("load", function () {
    var root = document.documentElement, width = root.clientWidth;
    if (root.scrollWidth > width) {
      var wide = [];
      document.querySelectorAll("body *").forEach(function (el) {
        var r = el.getBoundingClientRect();
        if (r.right > width + 1 && !el.closest(".table-box") && wide.length < 5) { wide.push(el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? "." + el.className : "")); }
      });
      problems.push("overflow: the page is " + root.scrollWidth + " px wide in a " + width + " px window (" + wide.join(", ") + ")");
    }
    document.querySelectorAll("figure.chart svg").forEach(function (svg) {
      var name = (svg.querySelector("title") || {}).textContent || "chart";
      var boxes = Array.prototype.filter.call(svg.querySelectorAll("text"), function (t) { return !t.getAttribute("transform"); })
        .map(function (t) { var b = t.getBBox(); return { text: t.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height }; });
      for (var i = 0; i < boxes.length; i++) {
        for (var j = i + 1; j < boxes.length; j++) {
          var a = boxes[i], b = boxes[j];
          // One pixel of tolerance: glyph boxes include the font's line gap.
          if (a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - 1 && b.y0 < a.y1 - 1) {
            problems.push("overlap in \"" + name + "\": \"" + a.text + "\" runs into \"" + b.text + "\"");
          }
        }
      }
    });
    document.title = "CHECK width=" + width + " scrollWidth=" + root.scrollWidth + " height=" + root.scrollHeight
      + " problems=" + problems.length + (problems.length ? " :: " + problems.join(" ;; ") : "");
    if (window.parent !== window) { window.parent.postMessage(document.title, "*"); }
  });
})();
</script>
JS
probed="$work/page.html"
# Insert the probe right after <head>: it must run before the page's own script.
sed "/^<head>\$/r $work/probe.html" "$page" > "$probed"
grep -q 'CHECK width=' "$probed" || { echo "check-page: $page has no <head> line to put the probe after" >&2; exit 2; }

# Chromium will not open a window narrower than 500 px, so the page is shown in a frame of the
# width under test; the frame passes the probe's findings up to the title of the outer page.
frame() { # width height src -> the outer page
    local f="$work/frame-$1-$2.html"
    cat > "$f" <<HTML
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>waiting</title>
<style>body { margin: 0; background: #8c959f; } iframe { display: block; border: 0; width: $1px; height: $2px; background: #fff; }</style>
</head><body><iframe src="file://$3"></iframe>
<script>window.addEventListener("message", function (e) { document.title = e.data; });</script>
</body></html>
HTML
    echo "$f"
}

flags=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --force-color-profile=srgb --force-device-scale-factor=1 --virtual-time-budget=5000)
status=0
for width in 1280 390; do
    log="$work/chromium-$width.log"
    window=$(( width < 500 ? 500 : width ))
    dom=$("$browser" "${flags[@]}" --window-size="$window,900" --dump-dom "file://$(frame "$width" 900 "$probed")" 2>"$log") || {
        echo "check-page: Chromium failed at $width px; its log:" >&2; tail -20 "$log" >&2; exit 2; }
    title=$(printf '%s' "$dom" | sed -n 's:.*<title>\(CHECK [^<]*\)</title>.*:\1:p' | head -1)
    [ -n "$title" ] || { echo "check-page: the probe did not report at $width px" >&2; status=1; continue; }
    height=$(printf '%s' "$title" | sed -n 's/.* height=\([0-9]*\).*/\1/p')
    # A screenshot of the first screen and one of the whole page (capped at 20,000 px); below 500 px
    # the frame leaves a grey strip on the right.
    "$browser" "${flags[@]}" --window-size="$window,900" --screenshot="$out/report-$width.png" \
        "file://$(frame "$width" 900 "$page")" 2>>"$log" >/dev/null
    full=$(( height < 20000 ? height : 20000 ))
    "$browser" "${flags[@]}" --window-size="$window,$full" --screenshot="$out/report-$width-full.png" \
        "file://$(frame "$width" "$full" "$page")" 2>>"$log" >/dev/null
    if printf '%s' "$title" | grep -q ' problems=0'; then
        echo "check-page: $width px: ok (${title#CHECK }); screenshots $out/report-$width.png, $out/report-$width-full.png"
    else
        echo "check-page: $width px: FAILED" >&2
        printf '%s\n' "${title#*:: }" | sed 's/ ;; /\n/g' | sed 's/^/  /' >&2
        status=1
    fi
done
exit $status
