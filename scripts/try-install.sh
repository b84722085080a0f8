#!/usr/bin/env bash
# Runs scripts/install.sh against a release served from a local file server (Python's
# http.server on loopback), the way a user's machine or the action meets a GitHub release:
#
#   install      the archive and checksums of this machine's platform: installed, runs, right version
#   tampered     the archive changed after its checksum was listed: refused, nothing installed (1)
#   missing      no asset for the version asked: a clear error (1)
#   action-tag   --from-action with a release tag: installed, path= written to GITHUB_OUTPUT
#   action-ref   --from-action with a branch ref: a notice, no path, exit 0 (the action builds)
#   action-none  --from-action with a tag that has no binary: a notice, no path, exit 0
#
# The archive holds BINARY (default .build/release/widget-quota); the release workflow packs the
# statically linked one with scripts/package-release.sh.
#
#   scripts/try-install.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin=${1:-.build/release/widget-quota}
[ -x "$bin" ] || swift build -c release --product widget-quota
version=$("$bin" --version | awk '{print $NF}')
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x86_64 ;;
    Linux-aarch64) platform=linux-aarch64 ;;
    Darwin-*) platform=macos-universal ;;
esac
work=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2> /dev/null; rm -rf "$work"' EXIT
release=$work/release/v$version
mkdir -p "$release" "$work/stage"
cp "$bin" "$work/stage/widget-quota"
archive=widget-quota-$version-$platform.tar.gz
tar -czf "$release/$archive" -C "$work/stage" widget-quota
(cd "$release" && sha256sum "$archive" > "widget-quota-$version-checksums.txt")

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/release" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" > /dev/null 2>&1 && break; sleep 0.1; done
url=http://127.0.0.1:$port/v$version

failures=0
ok() { printf 'ok   %-12s %s\n' "$1" "$2"; }
bad() { printf 'FAIL %-12s %s\n' "$1" "$2"; failures=$((failures + 1)); }

status=0
"$root/scripts/install.sh" --version "$version" --base-url "$url" --to "$work/bin" > "$work/out" 2>&1 || status=$?
if [ "$status" -eq 0 ] && [ "$("$work/bin/widget-quota" --version)" = "widget-quota $version" ]; then
    ok install "$(tail -n 1 "$work/out")"
else bad install "exit $status: $(cat "$work/out")"; fi

cp "$release/$archive" "$work/good.tar.gz"
printf 'tampered' >> "$release/$archive"
status=0
"$root/scripts/install.sh" --version "$version" --base-url "$url" --to "$work/bin2" > "$work/out" 2>&1 || status=$?
if [ "$status" -eq 1 ] && grep -q "does not match its checksum" "$work/out" && [ ! -e "$work/bin2/widget-quota" ]; then
    ok tampered "$(cat "$work/out")"
else bad tampered "exit $status: $(cat "$work/out")"; fi
cp "$work/good.tar.gz" "$release/$archive"

status=0
"$root/scripts/install.sh" --version 9.9.9 --base-url "http://127.0.0.1:$port/v9.9.9" --to "$work/bin3" > "$work/out" 2>&1 || status=$?
if [ "$status" -eq 1 ] && grep -q "no widget-quota-9.9.9-$platform.tar.gz at" "$work/out"; then
    ok missing "$(cat "$work/out")"
else bad missing "exit $status: $(cat "$work/out")"; fi

: > "$work/github_output"
status=0
GITHUB_OUTPUT=$work/github_output WIDGET_QUOTA_DOWNLOAD_URL=$url \
    "$root/scripts/install.sh" --from-action "v$version" widget-quota/widget-quota "$work/bin4" > "$work/out" 2>&1 || status=$?
if [ "$status" -eq 0 ] && grep -qx "path=$work/bin4/widget-quota" "$work/github_output"; then
    ok action-tag "$(tail -n 1 "$work/out")"
else bad action-tag "exit $status: $(cat "$work/out") / $(cat "$work/github_output")"; fi

for case in "action-ref main" "action-none v9.9.9"; do
    read -r name ref <<< "$case"
    set -- "$name" "$ref"
    : > "$work/github_output"
    status=0
    GITHUB_OUTPUT=$work/github_output WIDGET_QUOTA_DOWNLOAD_URL="http://127.0.0.1:$port/$2" \
        "$root/scripts/install.sh" --from-action "$2" widget-quota/widget-quota "$work/bin5" > "$work/out" 2>&1 || status=$?
    if [ "$status" -eq 0 ] && [ ! -s "$work/github_output" ] && grep -q '^::notice title=widget-quota::' "$work/out"; then
        ok "$1" "$(cat "$work/out")"
    else bad "$1" "exit $status: $(cat "$work/out")"; fi
done

if [ "$failures" -gt 0 ]; then
    echo "try-install: $failures of 6 cases failed" >&2
    exit 1
fi
echo "try-install: install.sh held on all 6 cases against a local file server"
