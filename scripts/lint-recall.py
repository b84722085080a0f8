#!/usr/bin/env python3
"""Recall of `widget-quota lint` on the recall corpus (docs/lint-corpus/recall.json).

Usage: scripts/lint-recall.py OUTPUTS [OUTPUTS ...] [--corpus FILE] [--misses]

The recall corpus lists, for each app, what a reader of the code says lint should report
(`expected`), judged before lint was run on it, and the design the code implements. Each
OUTPUTS folder holds `<app id>.json`, the `lint --format json` output for one app
(scripts/lint-corpus.sh writes them). An expectation is found when a finding of its rule is in
its file within two lines of it; one marked `"lintRule": false` is a fact of the design, not a
finding. For each folder and each set of apps (`tuned`: the apps lint was improved on;
`held-out`: apps judged and first run after that), prints a Markdown table per rule of the clear
expectations found and missed (recall), the unsure ones found, and the design lint read next to
the reader's. --misses lists every clear expectation not found, with the reader's path.
Exit 0; exit 65 when a file cannot be read as expected.
"""
import collections
import json
import os
import sys

TOLERANCE = 2


def found(expectation, findings):
    return any(
        f.get("rule") == expectation["rule"]
        and f.get("file") == expectation["file"]
        and f.get("line") is not None
        and abs(f["line"] - expectation["line"]) <= TOLERANCE
        for f in findings
    )


def main(argv):
    corpus_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "lint-corpus", "recall.json")
    folders, show_misses = [], False
    k = 0
    while k < len(argv):
        if argv[k] == "--corpus" and k + 1 < len(argv):
            corpus_path = argv[k + 1]
            k += 2
        elif argv[k] == "--misses":
            show_misses = True
            k += 1
        elif argv[k] in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            folders.append(argv[k])
            k += 1
    if not folders:
        print(__doc__, file=sys.stderr)
        return 64
    try:
        with open(corpus_path) as handle:
            corpus = json.load(handle)
        apps = corpus["apps"]
    except (OSError, ValueError, KeyError) as error:
        print(f"{corpus_path}: cannot read the recall corpus: {error}", file=sys.stderr)
        return 65
    for folder in folders:
        print(f"## {folder}\n")
        for set_name in sorted({app.get("set", "all") for app in apps}, reverse=True):
            status = report(folder, [app for app in apps if app.get("set", "all") == set_name], set_name, show_misses)
            if status:
                return status
    return 0


def report(folder, apps, set_name, show_misses):
    """Prints the recall and design tables of `apps` for one lint run; 65 when an output is unreadable."""
    totals = collections.defaultdict(lambda: [0, 0, 0, 0])  # clear found, clear, unsure found, unsure
    designs, misses = [], []
    for app in apps:
        path = os.path.join(folder, app["id"] + ".json")
        try:
            with open(path) as handle:
                output = json.load(handle)
            findings = output["findings"]
        except (OSError, ValueError, KeyError) as error:
            print(f"{path}: cannot read lint's output: {error}", file=sys.stderr)
            return 65
        for e in app["expected"]:
            if not e.get("lintRule", True):
                continue
            hit = found(e, findings)
            row = totals[e["rule"]]
            if e["clarity"] == "clear":
                row[0] += hit
                row[1] += 1
                if not hit:
                    misses.append((app["id"], e))
            else:
                row[2] += hit
                row[3] += 1
        design = output.get("design") or {}
        designs.append((app["id"], design.get("sentence", "–"), design.get("requestsPerUserMonth"), app["design"]["summary"]))
    print(f"### {set_name} ({len(apps)} apps)\n")
    print("| Rule | Clear found / expected | Recall | Unsure found / expected |")
    print("| --- | ---: | ---: | ---: |")
    for rule in sorted(totals):
        cf, c, uf, u = totals[rule]
        recall = f"{100 * cf / c:.0f}%" if c else "–"
        print(f"| `{rule}` | {cf} / {c} | {recall} | {uf} / {u} |")
    cf = sum(r[0] for r in totals.values())
    c = sum(r[1] for r in totals.values())
    print(f"| **all** | **{cf} / {c}** | **{100 * cf / max(c, 1):.0f}%** | |\n")
    print("| App | The design lint read | Requests a user-month | What the code does |")
    print("| --- | --- | ---: | --- |")
    for app_id, sentence, requests, summary in designs:
        shown = f"{requests:,.0f}" if isinstance(requests, (int, float)) else "–"
        print(f"| {app_id} | {sentence} | {shown} | {summary} |")
    print()
    if show_misses:
        for app_id, e in misses:
            print(f"- miss {app_id} {e['rule']} {e['file']}:{e['line']} — {e.get('path') or e.get('reason', '')}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
