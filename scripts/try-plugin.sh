#!/usr/bin/env bash
# Runs the package's command plugin, `swift package widget-quota-lint`, on a fixture package
# (Tests/WidgetQuotaTestSupport/Fixtures/plugin-package, whose widget calls the API from
# getTimeline) and checks its Xcode-style findings and exit status: the whole package and
# `--target Widget` find the error; the default `--fail-on error` fails the command, `--fail-on
# never` does not. The plugin runs the release build of the tool in .build, which `swift build -c
# release` made (the fixture depends on this package by path, so the same commands build the same
# files): nothing is built twice.
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
[ "$failures" -eq 0 ] || { echo "try-plugin: $failures failures" >&2; exit 1; }
echo "try-plugin: swift package widget-quota-lint works on the fixture package"
