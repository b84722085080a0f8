#!/usr/bin/env bash
# The library's public face, one declaration a line, read from the release build's modules with
# the toolchain's swift-symbolgraph-extract: every module `import WidgetQuotaKit` re-exports, and
# the kit itself. docs/api/public-api.txt is the digest checked in; CI fails when the build's face
# differs from it, so a change to the public API is a decision made in a commit of its own.
#
#   scripts/api-digest.sh              compare with docs/api/public-api.txt (exit 1 on a difference)
#   scripts/api-digest.sh --update     write docs/api/public-api.txt from the build
#
# Needs `swift build -c release` first. Prints how many declarations are public and how many of
# those (written in the source, not synthesised by the compiler) have a doc comment, and fails
# when one written in the source has none (protocol witnesses and operators aside).
set -euo pipefail
cd "$(dirname "$0")/.."
modules_dir=.build/release/Modules
digest=docs/api/public-api.txt
[ -d "$modules_dir" ] || { echo "api-digest: no $modules_dir; run 'swift build -c release' first" >&2; exit 2; }
case "$(uname -m)" in arm64 | aarch64) arch=aarch64 ;; *) arch=x86_64 ;; esac
if [ "$(uname -s)" = Darwin ]; then target="${arch/aarch64/arm64}-apple-macosx14.0"; else target="$arch-unknown-linux-gnu"; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
modules="WidgetQuotaKit $(sed -n 's/^@_exported import \(WidgetQuota[A-Za-z]*\)$/\1/p' Sources/WidgetQuotaKit/Exports.swift)"
for module in $modules; do
    swift-symbolgraph-extract -module-name "$module" -I "$modules_dir" -target "$target" \
        -minimum-access-level public -skip-inherited-docs -output-dir "$out"
done
python3 - "$out" > "$out/digest.txt" 2> "$out/counts.txt" <<'PY'
import json, pathlib, sys
# Members a protocol conformance asks for: their meaning is the protocol's.
witnesses = {"init(from:)", "encode(to:)", "hash(into:)", "hashValue", "description", "init(rawValue:)", "rawValue"}
lines, written, documented, undocumented = set(), 0, 0, []
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.symbols.json")):
    graph = json.loads(path.read_text())
    module = graph["module"]["name"]
    for s in graph["symbols"]:
        declaration = "".join(f["spelling"] for f in s.get("declarationFragments", []))
        name = ".".join(s["pathComponents"])
        lines.add(f"{module} {s['kind']['identifier']} {name}: {' '.join(declaration.split())}")
        if "::SYNTHESIZED::" in s["identifier"]["precise"] or "location" not in s:
            continue
        written += 1
        if "docComment" in s:
            documented += 1
        elif s["pathComponents"][-1] not in witnesses and s["kind"]["identifier"] != "swift.func.op":
            location = s["location"]
            file = location["uri"].split("/Sources/", 1)[-1]
            undocumented.append(f"Sources/{file}:{location['position']['line'] + 1}: {name}")
print("\n".join(sorted(lines)))
print(f"api-digest: {len(lines)} public declarations; {written} written in the source, {documented} of them with a doc comment", file=sys.stderr)
for u in sorted(set(undocumented)):
    print(f"undocumented: {u}", file=sys.stderr)
PY
grep -v '^undocumented: ' "$out/counts.txt" || true
if grep -q '^undocumented: ' "$out/counts.txt"; then
    grep '^undocumented: ' "$out/counts.txt" | sed -n 1,40p >&2
    echo "error: every public declaration has a doc comment (protocol witnesses and operators aside); add one, or make the declaration package" >&2
    exit 1
fi
if [ "${1:-}" = --update ]; then
    mkdir -p "$(dirname "$digest")"
    cp "$out/digest.txt" "$digest"
    echo "api-digest: wrote $digest"
elif ! diff -u "$digest" "$out/digest.txt" > "$out/diff.txt"; then
    head -n 60 "$out/diff.txt"
    echo "error: the public API differs from $digest (above: - removed, + added). If the change is meant, run scripts/api-digest.sh --update, commit the digest with it and say so in CHANGELOG.md" >&2
    exit 1
else
    echo "api-digest: the public API is $digest"
fi
