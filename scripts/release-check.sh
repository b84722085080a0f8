#!/usr/bin/env bash
# Checks that a release tag agrees with the tool: the tag is vV where V is the version the binary
# reports (Sources/WidgetQuotaSupport/Version.swift, the one source of the version), and
# CHANGELOG.md has a `## [V] - YYYY-MM-DD` section. With --notes it prints that section, for the
# release's notes.
#
#   scripts/release-check.sh vX.Y.Z [--notes]
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:?usage: scripts/release-check.sh vX.Y.Z [--notes]}
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/WidgetQuotaSupport/Version.swift)
if [ "$tag" != "v$version" ]; then
    echo "release-check.sh: the tag $tag does not match the version $version in Version.swift" >&2
    exit 1
fi
if ! grep -Eq "^## \[$version\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$" CHANGELOG.md; then
    echo "release-check.sh: CHANGELOG.md has no '## [$version] - YYYY-MM-DD' section" >&2
    exit 1
fi
if [ "${2:-}" = --notes ]; then
    awk -v head="## [$version]" 'index($0, head) == 1 {on = 1; next} on && /^## \[/ {exit} on' CHANGELOG.md
fi
