#!/usr/bin/env python3
"""Precision of `widget-quota lint` on the judged corpus (docs/lint-corpus/corpus.json).

Usage: scripts/lint-precision.py OUTPUTS [OUTPUTS ...] [--corpus FILE] [--unjudged FILE]

Each OUTPUTS folder holds `<app id>.json`, the `lint --format json` output for one corpus app
(scripts/lint-corpus.sh writes them). A finding is matched to a judgement by app, rule, file and
line. For each folder, prints a Markdown table per rule: findings judged right, wrong and
unsure, findings nobody has judged yet, and precision (right / (right + wrong)), for all
findings and for errors alone. --unjudged FILE writes the findings without a judgement, for a
person to judge and add. Exit 0; exit 65 when a file cannot be read as expected.
"""
import collections
import json
import os
import sys


def main(argv):
    corpus_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "lint-corpus", "corpus.json")
    unjudged_path = None
    folders = []
    k = 0
    while k < len(argv):
        if argv[k] == "--corpus" and k + 1 < len(argv):
            corpus_path = argv[k + 1]
            k += 2
        elif argv[k] == "--unjudged" and k + 1 < len(argv):
            unjudged_path = argv[k + 1]
            k += 2
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
        corpus = json.load(open(corpus_path))
    except (OSError, ValueError) as error:
        print(f"{corpus_path}: cannot read the corpus: {error}", file=sys.stderr)
        return 65
    judged = {(j["app"], j["rule"], j["file"], j["line"]): j["verdict"] for j in corpus["judgements"]}
    apps = [a["id"] for a in corpus["apps"]]
    unjudged = []
    for folder in folders:
        print(f"## {folder}\n")
        for errors_only in (False, True):
            tally = collections.defaultdict(collections.Counter)
            for app in apps:
                path = os.path.join(folder, app + ".json")
                if not os.path.exists(path):
                    continue
                try:
                    findings = json.load(open(path))["findings"]
                except (OSError, ValueError, KeyError) as error:
                    print(f"{path}: not lint JSON output: {error}", file=sys.stderr)
                    return 65
                for f in findings:
                    if errors_only and f["severity"] != "error":
                        continue
                    verdict = judged.get((app, f["rule"], f["file"], f.get("line")), "unjudged")
                    if verdict == "unjudged" and not errors_only:
                        unjudged.append(dict(app=app, **f))
                    tally[f["rule"]][verdict] += 1
                    tally["all rules"][verdict] += 1
            print(f"{'Errors' if errors_only else 'All findings'}:\n")
            print("| rule | right | wrong | unsure | unjudged | precision |")
            print("| --- | ---: | ---: | ---: | ---: | ---: |")
            for rule in sorted(tally, key=lambda r: (r == "all rules", r)):
                c = tally[rule]
                judged_count = c["right"] + c["wrong"]
                precision = f"{100 * c['right'] / judged_count:.0f}%" if judged_count else "–"
                print(f"| {rule} | {c['right']} | {c['wrong']} | {c['unsure']} | {c['unjudged']} | {precision} |")
            print()
    if unjudged_path:
        json.dump(unjudged, open(unjudged_path, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
