#!/usr/bin/env bash
# Fuzzes every parser for a bounded number of inputs under AddressSanitizer: builds
# widget-quota-fuzz with libFuzzer, then runs each target from a seed corpus (the saved crashes
# of Tests/WidgetQuotaTestSupport/Fixtures/fuzz, SampleLogs, the default scenario, a small app's
# Swift, property lists and project file) with a fixed seed, so a run is repeatable.
#
#   scripts/fuzz-ci.sh [RUNS]     (default: 4000 inputs per target)
#
# Exit status: 0 no target crashed, hung (10 s an input) or went past 2 GB; 1 one did (its input
# is kept in .build/fuzz-ci/TARGET/); 2 the toolchain has no libFuzzer (nothing was fuzzed).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-4000}
out=.build/fuzz-ci
if ! swift build -c release --product widget-quota-fuzz --build-path .build/fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING >"$out.build.log" 2>&1; then
    # Only a toolchain without libFuzzer is a skip; any other failure (a compile error) fails.
    if grep -q -E "unsupported option '-sanitize=fuzzer|libclang_rt\.fuzzer[^ ]* (not found|: No such file)|cannot find -l.*fuzzer" "$out.build.log"; then
        echo "fuzz-ci: this toolchain cannot build with -sanitize=fuzzer; nothing was fuzzed" >&2
        exit 2
    fi
    cat "$out.build.log" >&2
    exit 1
fi
fuzz=.build/fuzz/release/widget-quota-fuzz
rm -rf "$out" && mkdir -p "$out"
fixtures=Tests/WidgetQuotaTestSupport/Fixtures
app=$fixtures/apps/broken-app
seed() { # TARGET FILE...: copies the files that exist into the target's corpus
    local target=$1
    shift
    mkdir -p "$out/$target/corpus"
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$out/$target/corpus/"; done
    [ -d "$fixtures/fuzz/$target" ] && cp "$fixtures/fuzz/$target"/* "$out/$target/corpus/" 2>/dev/null
    return 0
}
.build/release/widget-quota scenario >"$out/scenario.json" 2>/dev/null || swift run -c release widget-quota scenario >"$out/scenario.json"
seed scenario "$out/scenario.json" docs/examples/*.json
seed thresholds
printf 'requestsPerUserMonth.p95{design=direct,users=1_000} >= 1.5e3\n' >"$out/thresholds/corpus/one"
seed rules SampleLogs/rules.example.json
seed prices
printf '{"gemini/gemini-2.5-flash": {"input_cost_per_token": 3e-07, "output_cost_per_token": 2.5e-06}}' >"$out/prices/corpus/one"
seed logs SampleLogs/direct-trace.ndjson SampleLogs/direct-apple.ndjson SampleLogs/cache-bgtask-trace.csv
seed trace-ndjson SampleLogs/direct-trace.ndjson
seed trace-csv SampleLogs/cache-bgtask-trace.csv
seed apple-ndjson SampleLogs/direct-apple.ndjson
seed apple-json SampleLogs/cache-bgtask-apple.json
seed apple-default SampleLogs/direct-apple-default.log SampleLogs/gemini-app-default.log
seed apple-syslog SampleLogs/cache-bgtask-apple-syslog.log
seed apple-compact SampleLogs/cache-bgtask-apple-compact.log
seed swift-source $(find "$app" -name '*.swift' | sort | head -8)
seed plist $(find "$app" -name '*.plist' -o -name '*.entitlements' | sort)
seed pbxproj $(find "$fixtures/apps" -name project.pbxproj | sort)
seed xcodegen
printf 'name: Q\ninclude: [Widget/project.yml]\ntargets:\n  App:\n    type: application\n    sources:\n      - path: App\n        excludes: ["*.md"]\n    info: {path: App/Info.plist, properties: {A: [1, "b"]}}\n  Widget:\n    type: app-extension\n    sources: [Widget]\n    entitlements:\n      properties:\n        com.apple.security.application-groups:\n          - group.q\n' >"$out/xcodegen/corpus/one"
failures=0
for target in $(ls "$out" | grep -v '\.'); do
    start=$(date +%s)
    status=0
    WIDGET_QUOTA_FUZZ_TARGET=$target "$fuzz" -seed=1 -runs="$runs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/$target/" "$out/$target/corpus" >"$out/$target/fuzz.log" 2>&1 || status=$?
    edges=$(grep -o 'cov: [0-9]*' "$out/$target/fuzz.log" | tail -1 | cut -d' ' -f2)
    if [ "$status" -ne 0 ]; then
        failures=$((failures + 1))
        echo "FAIL $target (exit $status): $(ls "$out/$target" | grep -E '^(crash|timeout|oom|leak)-' | head -1)" >&2
        tail -30 "$out/$target/fuzz.log" >&2
    else
        printf 'ok   %-14s %6d inputs, %5s code edges, %3d s\n' "$target" "$runs" "${edges:-?}" $(($(date +%s) - start))
    fi
done
if [ "$failures" -gt 0 ]; then
    echo "fuzz-ci: $failures targets failed; each failing input is in $out/TARGET/ (replay: swift run widget-quota-fuzz TARGET FILE)" >&2
    exit 1
fi
echo "fuzz-ci: every target ran $runs inputs without a crash, a hang or running out of memory"
