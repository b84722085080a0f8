#!/usr/bin/env bash
# Runs the shell steps of the example workflow (.github/workflows/widget-quota.yml.example), as
# written, in a temporary app repository, for eight pull requests, and checks the comment each
# posts and the check's exit status. The app (MyApp) is the cache-app fixture: its widget reads
# an App Group cache the app fills.
#
#   changed-scenario  the PR raises the scenario's cache TTL a little: the diff comment, gates pass (0)
#   first-scenario    the base branch has no scenario: both projected under the PR's, it says so (0)
#   invalid-base      the base branch's scenario is invalid: projected under the PR's, it says so (0)
#   migrated-base     the base branch's scenario is of 0.1.0: read through its migration, named (0)
#   code-fetch        code only: the widget now fetches in getTimeline; requests, cost and plan
#                     rise, the new lint finding is named, the gates fail (1)
#   comment-only      code only: a comment added to the widget; no change (0)
#   no-design         the app sends no request: the scenario's designs alone, said so (0)
#   base-no-app       the base's app sends no request: the change gates on the code's design are
#                     listed as not checked, the thresholds hold (0)
#
# The repository has a base and a head branch and an `origin` to compare with. The action's
# build is replaced by the local binary on PATH, `uses:` steps are skipped (the artifact stays in
# the same folder), and `gh` by a recorder that keeps the pull request's comments in a JSON file
# and answers `--jq` with jq, so the sticky comment is found (and a person's quote of the marker
# is not). Each run step also passes shellcheck. Needs git, jq, shellcheck and Python 3 with PyYAML
# (installed from the system packages if missing).
#
#   scripts/try-workflow.sh [BINARY]     (default: .build/release/widget-quota, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
workflow=$root/.github/workflows/widget-quota.yml.example
action=$root/action.yml
bin=${1:-.build/release/widget-quota}
[ -x "$bin" ] || swift build -c release --product widget-quota
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
need=()
command -v jq > /dev/null || need+=(jq)
python3 -c 'import yaml' 2> /dev/null || need+=(python3-yaml)
command -v shellcheck > /dev/null || need+=(shellcheck)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "${need[@]}" >&2
fi

work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT; [ -n "${KEEP:-}" ] && echo "work: $work"
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/widget-quota"

# gh, recorded: `gh api [--method M] PATH [--paginate] [--jq FILTER] [-F body=@FILE]` against
# $GH_STATE, a JSON list of comments [{id, user: {login}, body}].
cat > "$work/bin/gh" << 'GH'
#!/usr/bin/env bash
set -euo pipefail
echo "gh $*" >> "$GH_RECORD"
[ "$1" = api ] || { echo "fake gh: only 'gh api' is recorded" >&2; exit 2; }
shift
method=GET path="" filter="" body=""
while [ $# -gt 0 ]; do
    case $1 in
        --method) method=$2; shift 2 ;;
        --paginate) shift ;;
        --jq) filter=$2; shift 2 ;;
        -F) body=${2#body=@}; shift 2 ;;
        *) path=$1; shift ;;
    esac
done
case $method in
    GET) if [ -n "$filter" ]; then jq -r "$filter" "$GH_STATE"; else cat "$GH_STATE"; fi ;;
    POST)
        id=$(( $(jq 'length' "$GH_STATE") + 100 ))
        jq --arg body "$(cat "$body")" --argjson id "$id" '. + [{id: $id, user: {login: "github-actions[bot]"}, body: $body}]' \
            "$GH_STATE" > "$GH_STATE.new" && mv "$GH_STATE.new" "$GH_STATE" ;;
    PATCH)
        id=${path##*/}
        jq --arg body "$(cat "$body")" --argjson id "$id" 'map(if .id == $id then .body = $body else . end)' \
            "$GH_STATE" > "$GH_STATE.new" && mv "$GH_STATE.new" "$GH_STATE" ;;
esac
GH
chmod +x "$work/bin/gh"

# The workflow's `run:` steps of one job, with their `if:`, and the env they see, as a script
# per step (workflow env, then the step's own, GitHub expressions replaced by this run's values).
steps() {
    python3 - "$workflow" "$1" "$2" "${3:-}" << 'PY'
import re, shlex, sys, yaml
workflow, job, outdir, extra = sys.argv[1:5]
doc = yaml.safe_load(open(workflow))
values = {
    **dict(pair.split("=", 1) for pair in extra.split("\n") if pair),
    "github.event_name": "pull_request", "github.base_ref": "main", "github.token": "fake-token",
    "github.event.pull_request.number": "7", "github.server_url": "https://github.com",
    "github.repository": "acme/weather-app", "github.run_id": "1234", "needs.quota.result": "success",
}
def expand(text):
    def one(m):
        key = m.group(1).strip()
        if key not in values:
            sys.exit(f"try-workflow: no value for ${{{{ {key} }}}} in a run step's env; add it to the script")
        return values[key]
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))
count = 0
for step in (doc["runs"]["steps"] if job == "action" else doc["jobs"][job]["steps"]):
    if "run" not in step:
        continue
    count += 1
    env = {**doc.get("env", {}), **{k: expand(v) for k, v in step.get("env", {}).items()}}
    with open(f"{outdir}/{count:02d}.sh", "w") as f:
        f.write("# " + step.get("name", "step") + "\n")
        f.write("# if: " + str(step.get("if", "success()")) + "\n")
        for k, v in env.items():
            f.write(f"export {k}={shlex.quote(str(v))}\n")
        f.write(step["run"])
PY
}

# A scenario with the cache design's TTL set to $1 minutes.
scenario() {
    "$bin" scenario | python3 -c '
import json, sys
s = json.load(sys.stdin)
s["designs"] = [{"name": "cache-bgtask", "cacheTTLMinutes": float(sys.argv[1])}]
s["horizon"]["runs"] = 4
s["horizon"]["users"] = [1000, 10000]
print(json.dumps(s, indent=2))' "$1"
}

# The app at one commit: cache (the cache-app fixture), fetch (its widget fetches in getTimeline),
# comment (a comment added to the widget) or none (no request anywhere).
app() {
    rm -rf MyApp
    if [ "$1" = none ]; then mkdir -p MyApp && echo "// the app" > MyApp/App.swift && return; fi
    cp -R "$root/Tests/WidgetQuotaTestSupport/Fixtures/apps/cache-app" MyApp
    rm -f MyApp/EXPECTED.md
    local widget=MyApp/Widget/QuoteWidget.swift
    case $1 in
        fetch)
            python3 - "$widget" << 'PY'
import sys
path = sys.argv[1]
text = open(path).read()
old = """        let entry = QuoteStore().entry()
        // The cache changes every six hours at most: ask again then.
        let next = Date().addingTimeInterval(6 * 60 * 60)
        completion(Timeline(entries: [entry], policy: .after(next)))"""
new = """        var request = URLRequest(url: URL(string: "https://api.example.com/quote")!)
        request.timeoutInterval = 15
        URLSession.shared.dataTask(with: request) { data, _, _ in
            let text = data.flatMap { String(data: $0, encoding: .utf8) } ?? "Stay curious."
            let next = Date().addingTimeInterval(15 * 60)
            completion(Timeline(entries: [QuoteEntry(date: Date(), text: text, isStale: false)], policy: .after(next)))
        }.resume()"""
assert old in text
open(path, "w").write(text.replace(old, new))
PY
            # The widget no longer reads the App Group cache.
            rm MyApp/Widget/QuoteStore.swift
            ;;
        comment) sed -i 's|^struct QuoteProvider: TimelineProvider {|// Reads the cache; see QuoteStore.\n&|' "$widget" ;;
    esac
}

# Runs one pull request: base and head commits given as scenario texts ("" for none) and apps.
run_case() {
    local name=$1 base_text=$2 head_text=$3 base_app=${4:-cache} head_app=${5:-cache}
    local dir=$work/$name
    mkdir -p "$dir"
    git init -q --bare "$dir/origin.git"
    git clone -q "$dir/origin.git" "$dir/repo" 2> /dev/null
    cd "$dir/repo"
    git config user.email ci@example.com && git config user.name CI
    git checkout -q -b main
    app "$base_app"
    if [ -n "$base_text" ]; then printf '%s\n' "$base_text" > widget-scenario.json; fi
    git add -A && git commit -q -m base && git push -q origin main 2> /dev/null
    git checkout -q -b feature
    app "$head_app"
    printf '%s\n' "$head_text" > widget-scenario.json
    git add -A && git commit -q --allow-empty -m head && git push -q origin feature 2> /dev/null
    git fetch -q origin

    export GH_STATE=$dir/comments.json GH_RECORD=$dir/gh.log GITHUB_STEP_SUMMARY=$dir/summary.md
    export GITHUB_OUTPUT=$dir/output GITHUB_REPOSITORY=acme/weather-app PATH="$work/bin:$PATH"
    # An earlier run's comment, and a person quoting the marker above it.
    echo '[{"id": 1, "user": {"login": "octocat"}, "body": "<!-- widget-quota diff --> quoted by a person"},
           {"id": 2, "user": {"login": "github-actions[bot]"}, "body": "<!-- widget-quota diff -->\nold"}]' > "$GH_STATE"
    : > "$GH_RECORD"
    mkdir -p "$dir/steps/quota" "$dir/steps/comment"
    steps quota "$dir/steps/quota"
    steps comment "$dir/steps/comment"
    # The steps' shell, as actionlint would check it (SC2016: a literal `$` in single quotes is meant).
    shellcheck -s bash -e SC2016 "$dir"/steps/*/*.sh || { echo "FAIL shellcheck on the workflow's run steps" >&2; exit 1; }
    local status=0 failed=0 script
    for script in "$dir"/steps/quota/*.sh; do
        if grep -q '^# if: always()' "$script" || [ "$failed" -eq 0 ]; then
            bash "$script" > "$dir/step.out" 2> "$dir/step.err" || { status=$?; failed=1; }
            cat "$dir/step.out" >> "$dir/log"
        fi
    done
    for script in "$dir"/steps/comment/*.sh; do bash "$script" >> "$dir/log" 2>&1; done
    cd "$root"
    CASE_STATUS=$status
    CASE_DIR=$dir
}

failures=0
check() {
    local name=$1 want_status=$2
    shift 2
    local comment bot human problems=()
    comment=$(jq -r '.[] | select(.id == 2) | .body' "$CASE_DIR/comments.json")
    human=$(jq -r '.[] | select(.id == 1) | .body' "$CASE_DIR/comments.json")
    bot=$(jq '[.[] | select(.user.login == "github-actions[bot]")] | length' "$CASE_DIR/comments.json")
    [ "$CASE_STATUS" -eq "$want_status" ] || problems+=("exit $CASE_STATUS, expected $want_status")
    [ "$bot" -eq 1 ] || problems+=("$bot bot comments, expected the old one updated")
    [ "$human" = "<!-- widget-quota diff --> quoted by a person" ] || problems+=("the person's comment was changed")
    grep -q -- '--method PATCH repos/acme/weather-app/issues/comments/2' "$CASE_DIR/gh.log" || problems+=("no PATCH of comment 2")
    [[ $comment == "<!-- widget-quota diff -->"* ]] || problems+=("the comment does not start with the marker")
    cmp -s <(printf '%s\n' "$comment") <(cat "$CASE_DIR/summary.md") || problems+=("the summary page differs from the comment")
    local expected
    for expected in "$@"; do
        [[ $comment == *"$expected"* ]] || problems+=("the comment lacks: $expected")
    done
    if [ ${#problems[@]} -eq 0 ]; then
        printf 'ok   %-15s exit %d; comment: %s\n' "$name" "$CASE_STATUS" "$(printf '%s' "$comment" | sed -n 2p)"
    else
        failures=$((failures + 1))
        printf 'FAIL %-15s %s\n' "$name" "$(IFS='; '; echo "${problems[*]}")"
        sed 's/^/     | /' "$CASE_DIR/log" | tail -20
    fi
    grep -h '^::' "$CASE_DIR/log" | sed 's/^/     annotation: /' | cut -c1-160 || true
}

# The action itself: its shell steps build (here: find) the binary, publish its path and version,
# and run one command with its arguments.
action_dir=$work/action
mkdir -p "$action_dir/steps"
# The action's ref is a branch here, so its download step says so and the build step builds.
workflow=$action steps action "$action_dir/steps" "$(printf '%s\n' "github.action_path=$root" \
    "github.action_ref=main" "github.action_repository=widget-quota/widget-quota" \
    "steps.download.outputs.path=" "steps.build.outputs.path=$bin" \
    "inputs.args=lint Tests/WidgetQuotaTestSupport/Fixtures/apps/broken-app --format github --fail-on never" \
    "inputs.working-directory=." "steps.install.outputs.path=$bin")"
shellcheck -s bash -e SC2016 "$action_dir"/steps/*.sh || { echo "FAIL shellcheck on action.yml's run steps" >&2; exit 1; }
: > "$action_dir/output"
: > "$action_dir/path"
action_status=0
for script in "$action_dir"/steps/*.sh; do
    GITHUB_OUTPUT=$action_dir/output GITHUB_PATH=$action_dir/path GITHUB_ACTION_PATH=$root RUNNER_TEMP=$action_dir \
        bash "$script" >> "$action_dir/log" 2>&1 || action_status=$?
done
built=$(sed -n 's/^path=//p' "$action_dir/output" | tail -n 1)
if [ "$action_status" -eq 0 ] && [ -n "$built" ] && [ "$(readlink -f "$built")" = "$(readlink -f "$bin")" ] \
    && grep -q '^version=[0-9]' "$action_dir/output" && grep -q '^exit-code=0$' "$action_dir/output" \
    && grep -q '^::error file=Tests/WidgetQuotaTestSupport/Fixtures/apps/broken-app/' "$action_dir/log" \
    && grep -q "^::notice title=widget-quota::the action's ref 'main' is not a release tag" "$action_dir/log"; then
    echo "ok   action          $(grep '^version=' "$action_dir/output"), on PATH: $(cat "$action_dir/path"), args run"
else
    failures=$((failures + 1))
    echo "FAIL action          exit $action_status; outputs: $(tr '\n' ' ' < "$action_dir/output")"
    tail -5 "$action_dir/log"
fi

run_case changed-scenario "$(scenario 45)" "$(scenario 50)"
check changed-scenario 0 "cacheTTLMinutes" "Change gates" "Lint findings new in this branch" "None"
run_case first-scenario "" "$(scenario 45)"
check first-scenario 0 "The base branch has no \`widget-scenario.json\`: this pull request adds it"
run_case invalid-base '{"horizon": {"runs": 0}}' "$(scenario 45)"
check invalid-base 0 "could not be read, so both branches are projected under this branch's" "horizon.runs"
run_case migrated-base "$(scenario 45 | python3 -c 'import json,sys; s=json.load(sys.stdin); s["platform"]["getTimelinePerDay"]=28.5; print(json.dumps(s))')" "$(scenario 45)"
check migrated-base 0 "read through its migrations" "getTimeline-from-causes (since 0.2.0)" "platform.getTimelinePerDay = 28.5"
run_case code-fetch "$(scenario 45)" "$(scenario 45)" cache fetch
check code-fetch 1 "**app**" "Requests a month" "▲" "FAILED" "widget-network-call" "MyApp/Widget/QuoteWidget.swift:"
run_case comment-only "$(scenario 45)" "$(scenario 45)" cache comment
check comment-only 0 "**No change**" "Lint findings new in this branch" "None"
run_case no-design "$(scenario 45)" "$(scenario 45)" none none
check no-design 0 "lint read no design from \`MyApp\`" "**No change**" "Not checked, for want of the design read from the code"
run_case base-no-app "$(scenario 45)" "$(scenario 45)" none cache
check base-no-app 0 "**app**: 2 rows new in head" "Not checked, for want of the design read from the code" "change(requestsPerMonth{design=app"

if [ "$failures" -gt 0 ]; then
    echo "try-workflow: $failures of 9 checks failed" >&2
    exit 1
fi
echo "try-workflow: the action's steps ran, and the workflow's held on all 8 pull requests"
