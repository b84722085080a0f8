#!/usr/bin/env bash
# `-` as standard input and standard output, end to end with the built program: a scenario, a
# price table and a report read from a pipe, a single-file output to standard output, and a
# second `-` refused.
# Usage: scripts/try-stdin.sh [path/to/widget-quota]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/widget-quota}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "try-stdin: $*" >&2; exit 1; }

# A scenario on standard input is checked and printed as the file would be.
"$bin" scenario --check docs/examples/sports-widget.json > "$dir/expected.json"
"$bin" scenario --check - < docs/examples/sports-widget.json > "$dir/piped.json"
cmp -s "$dir/expected.json" "$dir/piped.json" || fail "scenario --check - differs from scenario --check FILE"

# Its errors name stdin, with the exit code of bad input.
status=0
echo '{"horizon": {"runs": 0}}' | "$bin" scenario --check - 2> "$dir/err" > /dev/null || status=$?
[ "$status" -eq 65 ] || fail "an invalid scenario on stdin exits $status, not 65"
grep -q '^widget-quota scenario: stdin: ' "$dir/err" || fail "the error does not name stdin: $(cat "$dir/err")"

# simulate --scenario - gives the same report as the file.
small=(--designs direct,cache-bgtask --users 100 --runs 2 --sample-users 50 --no-sensitivity --format json)
"$bin" simulate --scenario docs/examples/sports-widget.json "${small[@]}" > "$dir/base.json"
"$bin" simulate --scenario - "${small[@]}" < docs/examples/sports-widget.json > "$dir/head.json"
cmp -s "$dir/base.json" "$dir/head.json" || fail "simulate --scenario - differs from --scenario FILE"

# diff reads either side from standard input; --out - is standard output.
"$bin" diff "$dir/base.json" "$dir/head.json" > "$dir/expected.md"
"$bin" diff - "$dir/head.json" < "$dir/base.json" > "$dir/piped.md"
"$bin" diff "$dir/base.json" - --out - < "$dir/head.json" > "$dir/out.md"
[ -s "$dir/expected.md" ] || fail "diff wrote nothing"
# The comparison names its sides: stdin instead of the file name.
sed 's/base\.json/stdin/g' "$dir/expected.md" | cmp -s - "$dir/piped.md" || fail "diff - HEAD differs from diff BASE HEAD"
sed 's/head\.json/stdin/g' "$dir/expected.md" | cmp -s - "$dir/out.md" || fail "diff BASE - --out - differs from diff BASE HEAD"
[ ! -e ./- ] || fail "--out - created a file named -"

# A second reader of standard input is a usage error (64), before any work.
status=0
"$bin" diff - - < "$dir/base.json" 2> "$dir/err" > /dev/null || status=$?
[ "$status" -eq 64 ] || fail "diff - - exits $status, not 64"
grep -q 'standard input (-) feeds one input' "$dir/err" || fail "no message for two readers: $(cat "$dir/err")"

echo "try-stdin: scenario, simulate and diff read standard input; --out - writes standard output"
