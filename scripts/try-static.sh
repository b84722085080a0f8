#!/usr/bin/env bash
# Builds the release binary as the release workflow does (scripts/package-release.sh: the Swift
# standard library and Foundation linked statically) and runs `report` with the toolchain out of
# reach: in a mount namespace where the toolchain's folder is an empty tmpfs, with a bare
# environment. The report must be Reports/ byte for byte. Prints the archive's and the binary's
# size.
#
# Exit status: 0 held, 1 failed, 2 skipped (not Linux, or no mount namespace here).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ "$(uname -s)" = Linux ] || { echo "try-static: Linux only"; exit 2; }
toolchain=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../.." && pwd)
if ! unshare -m true 2> /dev/null; then
    echo "try-static: no mount namespace here (unshare -m), so the toolchain cannot be hidden"
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/package-release.sh "$work/dist"
mkdir -p "$work/run"
tar -xzf "$work/dist"/widget-quota-*.tar.gz -C "$work/run"
cp -R SampleLogs "$work/run/"
if ldd "$work/run/widget-quota" | grep -q "$toolchain"; then
    echo "try-static: the binary links libraries of the toolchain at $toolchain:" >&2
    ldd "$work/run/widget-quota" >&2
    exit 1
fi
# The toolchain's folder hidden: a binary that needs it fails to start.
cd "$work/run"
status=0
# shellcheck disable=SC2016  # $1 is the inner shell's, on purpose
unshare -m sh -c 'mount -t tmpfs none "$1" && [ -z "$(ls -A "$1")" ] && exec env -i PATH=/usr/bin:/bin ./widget-quota report --quiet --out Reports' \
    sh "$toolchain" > "$work/out" 2>&1 || status=$?
cd "$root"
if [ "$status" -ne 0 ]; then
    cat "$work/out" >&2
    echo "try-static: report exited $status with the toolchain at $toolchain hidden" >&2
    exit 1
fi
for f in report.json summary.csv metrics.csv; do
    cmp -s "$work/run/Reports/$f" "Reports/$f" || { echo "try-static: $f differs from Reports/$f" >&2; exit 1; }
done
echo "try-static: the static binary ran report with $toolchain hidden; report.json, summary.csv and metrics.csv match Reports/"
echo "try-static: $(basename "$work/dist"/*.tar.gz) $(wc -c < "$work/dist"/widget-quota-*.tar.gz) bytes, the binary $(wc -c < "$work/run/widget-quota") bytes; $(ldd "$work/run/widget-quota" | awk '{print $1}' | tr '\n' ' ')"
