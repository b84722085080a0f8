#!/usr/bin/env bash
# Validates what widget-quota writes against its published JSON Schemas (docs/schema/, draft
# 2020-12) and lint's SARIF against the official SARIF 2.1.0 schema: report.json from `report`
# and from `simulate` on the example scenarios, analysis.json from `analyze` on every sample log,
# lint's JSON and SARIF on every fixture app, both kinds of diff input, and diff's JSON.
#
#   scripts/validate-json.sh [BINARY]     (default: .build/release/widget-quota, built if missing)
#
# Needs Python 3 with jsonschema (installs Debian's python3-jsonschema when missing). Exit 1 when
# a file does not match its schema.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/widget-quota}
[ -x "$bin" ] || swift build -c release --product widget-quota
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y python3-jsonschema >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
apps=Tests/WidgetQuotaTestSupport/Fixtures/apps
pairs=()
add() { pairs+=("$1=$2"); }

"$bin" report --quiet --out "$work/report" >/dev/null
add report "$work/report/report.json"
add analysis "$work/report/analysis.json"
add diff-input "$work/report/report.json"
add diff-input "$work/report/analysis.json"
for scenario in docs/examples/*.json; do
    name=$(basename "$scenario" .json)
    "$bin" simulate --scenario "$scenario" --runs 2 --format json --quiet \
        --warn-if 'costPerMonth > 1' >"$work/simulate-$name.json" 2>/dev/null
    add report "$work/simulate-$name.json"
done
for log in SampleLogs/*.log SampleLogs/*.ndjson SampleLogs/*.csv SampleLogs/cache-bgtask-apple.json; do
    "$bin" analyze "$log" --format json >"$work/analysis-$(basename "$log").json"
    add analysis "$work/analysis-$(basename "$log").json"
done
for app in "$apps"/*/; do
    name=$(basename "$app")
    "$bin" lint "$app" --format json --fail-on never --quiet >"$work/lint-$name.json"
    "$bin" lint "$app" --format sarif --fail-on never --quiet >"$work/lint-$name.sarif"
    add lint "$work/lint-$name.json"
    add sarif "$work/lint-$name.sarif"
done
# diff --format json: two projections of different designs, with thresholds, gates and the
# findings a code change adds (the broken app's against the cache app's as baseline).
"$bin" lint "$apps/cache-app" --sarif-root "$apps" --write-baseline "$work/baseline.json" --fail-on never --quiet \
    --out "$work/cache-lint.md" --emit-scenario "$work/cache-scenario.json" --design-name app
"$bin" lint "$apps/broken-app" --sarif-root "$apps" --baseline "$work/baseline.json" --format json --fail-on never --quiet \
    --out "$work/new-findings.json" --emit-scenario "$work/broken-scenario.json" --design-name app
"$bin" simulate --scenario "$work/cache-scenario.json" --runs 2 --no-sensitivity --format json --quiet > "$work/base.json"
"$bin" simulate --scenario "$work/broken-scenario.json" --runs 2 --no-sensitivity --format json --quiet > "$work/head.json"
"$bin" diff "$work/base.json" "$work/head.json" --format json --new-findings "$work/new-findings.json" \
    --warn-if 'costPerMonth > 1' --warn-if 'change(costPerMonth{design=app}) > 5%' --warn-if 'tierChange({design=app}) > 0' \
    --quiet > "$work/diff.json"
add diff "$work/diff.json"

python3 - "${pairs[@]}" <<'PY'
import json, sys
import jsonschema

schemas = {name: json.load(open(f"docs/schema/{name}.schema.json")) for name in ("report", "analysis", "lint", "diff-input", "diff")}
schemas["sarif"] = json.load(open("Tests/WidgetQuotaTestSupport/Fixtures/schemas/sarif-schema-2.1.0.json"))

def validator(name):
    schema = schemas[name]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    try:  # jsonschema 4.18 and later resolve references through a registry
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for n, s in schemas.items() if n != "sarif")
        return cls(schema, registry=registry)
    except ImportError:
        store = {s["$id"]: s for n, s in schemas.items() if n != "sarif"}
        return cls(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))

def undescribed(data, schema, path=""):
    """Keys the output has and its schema does not describe, where the schema lists properties:
    the schemas allow keys they do not know (readers ignore them), so this holds them to the
    outputs instead."""
    if isinstance(data, dict) and isinstance(schema.get("properties"), dict):
        for key, value in data.items():
            if key in schema["properties"]:
                yield from undescribed(value, schema["properties"][key], f"{path}/{key}")
            else:
                yield f"{path}/{key}"
    elif isinstance(data, list) and isinstance(schema.get("items"), dict):
        for item in data:
            yield from undescribed(item, schema["items"], f"{path}/[]")

failures = 0
for pair in sys.argv[1:]:
    name, path = pair.split("=", 1)
    data = json.load(open(path))
    errors = sorted(validator(name).iter_errors(data), key=lambda e: list(e.absolute_path))
    if name in ("report", "analysis", "lint"):
        errors += [type("Undescribed", (), {"absolute_path": [], "message": f"{key} is not described by the schema"})()
                   for key in sorted(set(undescribed(data, schemas[name])))]
    shown = path.split("/")[-1]
    if errors:
        failures += 1
        print(f"FAIL {shown} against {name}:")
        for e in errors[:10]:
            print(f"  at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    else:
        print(f"ok   {shown} against {name}")
if failures:
    sys.exit(f"validate-json: {failures} files do not match their schema")
print(f"validate-json: {len(sys.argv) - 1} files match their schemas")
PY
