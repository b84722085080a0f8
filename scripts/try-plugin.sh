#!/usr/bin/env bash
# Runs the package's command plugin, `swift package widget-quota-lint`, on a fixture package
# (Tests/WidgetQuotaTestSupport/Fixtures/plugin-package, whose widget calls the API from
# getTimeline) and checks its Xcode-style findings and exit status: the whole package and
# `--target Widget` find the error; the default `--fail-on error` fails the command, `--fail-on
# never` does not. The plugin runs the release build of the tool in .build, which `swift build -c
# release` made (the fixture depends on this package by path, so the same commands build the same
# files): nothing is built twice. Then builds a second fixture whose target applies the build-tool
# plugin (WidgetQuotaLintBuildPlugin).
set -euo pipefail
cd "$(dirname "$0")/.."
fixture=Tests/WidgetQuotaTestSupport/Fixtures/plugin-package
run() { swift package --package-path "$fixture" --scratch-path .build -c release widget-quota-lint "$@"; }
failures=0
expect() {
    local name=$1 want=$2 status=0
    shift 2
    run "$@" > .build/plugin-fixture.out 2>&1 || status=$?
    local line
    line=$(grep -E 'Sources/Widget/QuoteWidget\.swift:[0-9]+:[0-9]+: error: .*\[widget-network-call\]$' .build/plugin-fixture.out | head -n 1 || true)
    local held=false
    if [ "$want" = fail ]; then [ "$status" -ne 0 ] && held=true; else [ "$status" -eq 0 ] && held=true; fi
    if [ -n "$line" ] && [ "$held" = true ]; then
        echo "ok   $name: exit $status; ${line##*/}" | cut -c1-160
    else
        failures=$((failures + 1))
        echo "FAIL $name: exit $status, expected to $want with a widget-network-call error"
        tail -n 15 .build/plugin-fixture.out
    fi
}
mkdir -p .build
expect "the package, --fail-on never" pass --fail-on never
expect "the package, default --fail-on error" fail
expect "--target Widget" pass --target Widget --fail-on never

# The build-tool plugin: `swift build` of a package whose target applies it lints the target and
# shows the finding; a second build after a change lints again. SwiftPM builds the tool for the
# plugin as a host tool of its own (a few minutes the first time).
build_fixture=Tests/WidgetQuotaTestSupport/Fixtures/build-plugin-package
status=0
swift build --package-path "$build_fixture" --scratch-path .build -c release > .build/build-plugin.out 2>&1 || status=$?
touch "$build_fixture/Sources/Widget/QuoteFetcher.swift"
swift build --package-path "$build_fixture" --scratch-path .build -c release > .build/build-plugin-again.out 2>&1 || status=$?
pattern='Sources/Widget/QuoteFetcher\.swift:10:19: warning: .*\[request-timeout\]$'
if [ "$status" -eq 0 ] && grep -Eq "$pattern" .build/build-plugin.out && grep -Eq "$pattern" .build/build-plugin-again.out; then
    echo "ok   the build-tool plugin: swift build lints the target and shows $(grep -Eo 'QuoteFetcher.swift:[0-9:]+ warning' .build/build-plugin.out)"
else
    failures=$((failures + 1))
    echo "FAIL the build-tool plugin: exit $status, expected the request-timeout warning on both builds"
    tail -n 15 .build/build-plugin.out .build/build-plugin-again.out
fi
[ "$failures" -eq 0 ] || { echo "try-plugin: $failures failures" >&2; exit 1; }
echo "try-plugin: swift package widget-quota-lint and the build-tool plugin work on the fixture packages"
