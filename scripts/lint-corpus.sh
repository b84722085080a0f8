#!/usr/bin/env bash
# Lints every app of the judged corpus (docs/lint-corpus/corpus.json) and scores the findings.
#
# Usage: scripts/lint-corpus.sh TREES OUT [BINARY] [CORPUS]
#   TREES   a folder holding one checkout per app, named by the app's id (Owner+Name); an app
#           missing there is cloned at its pinned commit (needs network access to GitHub)
#   OUT     a folder for the outputs: <app>.json (lint --format json) and times.txt (wall
#           seconds and peak resident memory of each run)
#   BINARY  the widget-quota executable (default: .build/release/widget-quota)
#   CORPUS  the corpus file listing the apps (default: docs/lint-corpus/corpus.json; the recall
#           corpus is docs/lint-corpus/recall.json)
# Then prints the precision tables (scripts/lint-precision.py OUT), and for the recall corpus the
# recall tables first (scripts/lint-recall.py OUT). An app lint fails on is named in times.txt and the
# others still run; exit 0, or 1 when one failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
trees=${1:?usage: scripts/lint-corpus.sh TREES OUT [BINARY]}
out=${2:?usage: scripts/lint-corpus.sh TREES OUT [BINARY]}
binary=${3:-$here/.build/release/widget-quota}
corpus=${4:-$here/docs/lint-corpus/corpus.json}
failed=0
mkdir -p "$trees" "$out"
: > "$out/times.txt"
python3 -c 'import json,sys; [print(a["id"], a["repository"], a["commit"]) for a in json.load(open(sys.argv[1]))["apps"]]' \
    "$corpus" > "$out/apps.txt"
while read -r id repository commit; do
    if [ ! -d "$trees/$id" ]; then
        git clone --quiet --filter=blob:none --no-checkout "$repository" "$trees/$id"
        git -C "$trees/$id" checkout --quiet "$commit"
    fi
    if ! /usr/bin/time -f "$id %e s %M KiB" "$binary" lint "$trees/$id" --format json --out "$out/$id.json" --fail-on never --quiet \
        2>> "$out/times.txt"; then
        echo "$id: lint failed" >> "$out/times.txt"
        failed=1
    fi
done < "$out/apps.txt"
rm -f "$out/apps.txt"
cat "$out/times.txt"
if [ "$(basename "$corpus")" = recall.json ]; then
    python3 "$here/scripts/lint-recall.py" "$out" --corpus "$corpus"
fi
python3 "$here/scripts/lint-precision.py" "$out" --corpus "$corpus"
exit "$failed"
