#!/usr/bin/env bash
# Builds the release binary of this machine's platform and packs it as the release asset the
# install script and the action download:
#
#   Linux (x86_64, aarch64)  widget-quota-V-linux-ARCH.tar.gz, the Swift standard library and
#                            Foundation linked statically (glibc and libstdc++ stay dynamic)
#   macOS                    widget-quota-V-macos-universal.tar.gz, arm64 and x86_64 in one binary
#
# V is the tool's version (Sources/WidgetQuotaSupport/Version.swift). The release workflow runs
# this on each platform, then lists every archive's SHA-256 in widget-quota-V-checksums.txt.
#
#   scripts/package-release.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/package-release.sh OUTDIR}
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/WidgetQuotaSupport/Version.swift)
[ -n "$version" ] || { echo "package-release.sh: no version in Version.swift" >&2; exit 1; }
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64 | Linux-aarch64)
        platform=linux-$(uname -m)
        swift build -c release --product widget-quota --static-swift-stdlib --scratch-path .build/static
        cp .build/static/release/widget-quota "$stage/" ;;
    Darwin-*)
        platform=macos-universal
        swift build -c release --product widget-quota --arch arm64 --arch x86_64
        cp .build/apple/Products/Release/widget-quota "$stage/" ;;
    *) echo "package-release.sh: no release build for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
strip "$stage/widget-quota" 2> /dev/null || true
reported=$("$stage/widget-quota" --version | awk '{print $NF}')
[ "$reported" = "$version" ] || { echo "package-release.sh: the binary reports $reported, not $version" >&2; exit 1; }
archive=$out/widget-quota-$version-$platform.tar.gz
tar -czf "$archive" -C "$stage" widget-quota
echo "package-release.sh: $archive ($(wc -c < "$archive") bytes; the binary $(wc -c < "$stage/widget-quota") bytes)"
