#!/usr/bin/env bash
# Installs a widget-quota release binary: downloads the archive for this machine (Linux x86_64 or
# aarch64, macOS universal) and the release's checksums, verifies the archive's SHA-256, unpacks
# the binary and checks that it runs and reports the version asked for.
#
#   scripts/install.sh [--version V] [--to DIR] [--base-url URL]
#       V    the release (default: the latest, read from the repository's releases)
#       DIR  where the binary goes (default: ~/.local/bin)
#       URL  where the release's files are (default: the repository's GitHub release of V;
#            WIDGET_QUOTA_DOWNLOAD_URL sets it too), for a mirror or a local file server
#
#   scripts/install.sh --from-action REF REPOSITORY DIR
#       The action's mode: when REF is a release tag (vX.Y.Z) with a binary for this runner, it
#       installs into DIR and writes path=DIR/widget-quota to $GITHUB_OUTPUT; otherwise it says why
#       in a notice and exits 0 without a path, and the action builds from source.
#
# Exit status: 0 installed (or, from the action, nothing to install), 1 a download, checksum or
# run failed, 64 a usage error.
set -euo pipefail
repository=widget-quota/widget-quota
version="" to="$HOME/.local/bin" base_url=${WIDGET_QUOTA_DOWNLOAD_URL:-} from_action=0
while [ $# -gt 0 ]; do
    case $1 in
        --version) version=${2#v}; shift 2 ;;
        --to) to=$2; shift 2 ;;
        --base-url) base_url=$2; shift 2 ;;
        --from-action)
            [ $# -ge 4 ] || { echo "install.sh: --from-action needs REF REPOSITORY DIR" >&2; exit 64; }
            from_action=1 repository=$3 to=$4
            if [[ ! $2 =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
                echo "::notice title=widget-quota::the action's ref '$2' is not a release tag; building from source"
                exit 0
            fi
            version=${2#v}
            shift 4 ;;
        *) echo "install.sh: unknown argument '$1' (see the comment at the top of the script)" >&2; exit 64 ;;
    esac
done

fail() {
    if [ "$from_action" -eq 1 ]; then
        echo "::notice title=widget-quota::no usable release binary ($1); building from source"
        exit 0
    fi
    echo "install.sh: $1" >&2
    exit 1
}

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x86_64 ;;
    Linux-aarch64 | Linux-arm64) platform=linux-aarch64 ;;
    Darwin-*) platform=macos-universal ;;
    *) fail "no release binary for $(uname -s) $(uname -m); build from source: swift build -c release" ;;
esac
command -v curl > /dev/null || fail "curl is needed to download a release"

if [ -z "$version" ]; then
    latest=$(curl -fsSL "https://api.github.com/repos/$repository/releases/latest" 2> /dev/null \
        | sed -n 's/.*"tag_name": *"v\{0,1\}\([^"]*\)".*/\1/p' | head -n 1) || true
    [ -n "$latest" ] || fail "could not read the latest release of $repository; give --version"
    version=$latest
fi
base_url=${base_url:-https://github.com/$repository/releases/download/v$version}
archive=widget-quota-$version-$platform.tar.gz
sums=widget-quota-$version-checksums.txt

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -fsSL --retry 2 -o "$work/$archive" "$base_url/$archive" 2> /dev/null || fail "no $archive at $base_url"
curl -fsSL --retry 2 -o "$work/$sums" "$base_url/$sums" 2> /dev/null || fail "no $sums at $base_url"
expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f {print $1}' "$work/$sums")
[ -n "$expected" ] || fail "$sums lists no $archive"
if command -v sha256sum > /dev/null; then
    actual=$(sha256sum "$work/$archive" | awk '{print $1}')
else
    actual=$(shasum -a 256 "$work/$archive" | awk '{print $1}')
fi
[ "$actual" = "$expected" ] || fail "$archive does not match its checksum ($actual, expected $expected)"
tar -xzf "$work/$archive" -C "$work"
[ -f "$work/widget-quota" ] || fail "$archive holds no widget-quota binary"
reported=$("$work/widget-quota" --version 2> /dev/null | awk '{print $NF}') || reported=""
[ "$reported" = "$version" ] || fail "the binary of $archive does not run here or reports '${reported:-nothing}', not $version"
mkdir -p "$to"
# Replaced in one rename, so a running copy is never half-written.
cp "$work/widget-quota" "$to/.widget-quota.new"
chmod 755 "$to/.widget-quota.new"
mv -f "$to/.widget-quota.new" "$to/widget-quota"
if [ "$from_action" -eq 1 ]; then
    echo "path=$to/widget-quota" >> "$GITHUB_OUTPUT"
fi
echo "install.sh: widget-quota $version ($platform, sha256 $actual) installed in $to"
