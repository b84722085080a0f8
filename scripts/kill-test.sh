#!/usr/bin/env bash
# Kills `widget-quota simulate --out R` with SIGKILL at each of its renames, hard links and
# unlinks (strace's fault injection), and checks that R then holds one whole report (the old or
# the new, never a mix), that a file of the user's in R survives, and that the next run leaves no
# temporary or staging folder; then sends SIGTERM, SIGINT and SIGHUP at each file the run opens
# while it fills the staging folder and checks that nothing of it is left. Linux only (strace);
# exits 1 on any failure.
#
#   scripts/kill-test.sh [BINARY]     (default: .build/release/widget-quota, built if missing)
#
# Exit status: 0 every killed run left one whole report, 1 a failure, 2 strace cannot trace here.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/widget-quota}
[ -x "$bin" ] || swift build -c release --product widget-quota
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
if ! command -v strace >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y strace >&2
fi
if ! strace -qq -o /dev/null true 2>/dev/null; then
    echo "kill-test: strace cannot trace here (ptrace is not permitted); nothing was tested" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
run() { "$bin" simulate --out "$1" --seed "$2" --runs 2 >/dev/null 2>&1; }
run A 1
run B 2
total=$(ls A | wc -l)
failures=0

# What R holds: "old" (all of A), "new" (all of B) or "mixed".
state() {
    local a=0 b=0 f name
    for f in A/*; do
        name=$(basename "$f")
        if cmp -s "$f" "R/$name"; then a=$((a + 1)); fi
        if cmp -s "B/$name" "R/$name"; then b=$((b + 1)); fi
    done
    if [ "$a" -eq "$total" ]; then echo old; elif [ "$b" -eq "$total" ]; then echo new; else echo "mixed ($a old, $b new)"; fi
}
leftovers() { ls -A . R | grep -cE 'wq-staging-|\.tmp-[0-9]+$' || true; }

for calls in rename,renameat,renameat2 linkat unlink,unlinkat rmdir; do
    for n in 1 2 3 5 8; do
        rm -rf R .R.wq-staging-*
        cp -R A R
        echo mine >R/notes.txt
        status=0
        # In a subshell whose stderr is closed, so the shell's "Killed" notice is not printed.
        (
            strace -f -qq -o /dev/null -e trace="$calls" -e inject="$calls":signal=KILL:when=$n \
                "$bin" simulate --out R --seed 2 --runs 2 >/dev/null 2>&1
            exit $?
        ) 2>/dev/null || status=$?
        # Each kind of call happens at least once, so the first injection must kill the run.
        if [ "$n" -eq 1 ] && [ "$status" -ne 137 ]; then
            echo "FAIL the run was not killed at its first $calls (exit $status): the test tests nothing" >&2
            failures=$((failures + 1))
        fi
        now=$(state)
        kept=$([ "$(cat R/notes.txt 2>/dev/null)" = mine ] && echo kept || echo LOST)
        run R 2
        after=$(leftovers)
        verdict=ok
        if [[ $now == mixed* || $kept == LOST || $after != 0 || $(state) != new ]]; then
            verdict=FAIL
            failures=$((failures + 1))
        fi
        printf '%-4s killed at %-26s #%d: %-18s notes.txt %-4s  left after the next run: %s\n' \
            "$verdict" "$calls" "$n" "$now" "$kept" "$after"
    done
done
# SIGTERM, SIGINT and SIGHUP at each file the run opens from the staging folder's creation on
# (the main thread's opens, where the folder is written; strace follows no other thread here):
# the run ends by that signal, the staging folder is gone (it is removed while the writing thread
# may still be adding files to it), R holds the old report whole, and the user's file is kept.
strace -qq -o trace.txt -e trace=openat "$bin" simulate --out R --seed 2 --runs 2 >/dev/null 2>&1
opens=$(grep -c 'openat(' trace.txt)
first=$(grep 'openat(' trace.txt | grep -n 'wq-staging-' | head -1 | cut -d: -f1)
rm -f trace.txt
if [ -z "$first" ]; then
    echo "FAIL no file was opened in a staging folder: the signal test tests nothing" >&2
    failures=$((failures + 1))
    first=$opens
fi
for signal in TERM INT HUP; do
    code=$((128 + $(kill -l "$signal")))
    left=0
    ended=0
    for n in $(seq $((first - 2)) "$opens"); do
        early=$([ "$n" -ge "$first" ] && [ "$n" -le $((first + (opens - first) / 2)) ] && echo 1 || echo 0)
        # An early open that ends the run normally is tried again, up to three times: on a loaded machine a
        # lazily opened file can shift the run's opens by one; a signal that is ignored is
        # ignored again.
        for attempt in 1 2 3; do
            rm -rf R .R.wq-staging-*
            cp -R A R
            echo mine >R/notes.txt
            status=0
            (
                strace -qq -o /dev/null -e trace=openat -e inject=openat:signal="$signal":when=$n \
                    "$bin" simulate --out R --seed 2 --runs 2 >/dev/null 2>&1
                exit $?
            ) 2>/dev/null || status=$?
            [ "$early" -eq 1 ] && [ "$status" -ne "$code" ] && [ "$attempt" -lt 3 ] || break
        done
        now=$(state)
        [ "$status" -eq "$code" ] && ended=$((ended + 1))
        # The first half of the staging folder's opens come well before the swap: a signal there
        # must end the run. (Near the end the run's own opens may shift by one or two from the
        # traced run, so a signal there can land after the work is done.)
        if [ "$early" -eq 1 ] && [ "$status" -ne "$code" ]; then
            echo "FAIL SIG$signal at open #$n, early in the staging folder's writes: exit $status, not ended by the signal" >&2
            failures=$((failures + 1))
        fi
        if [ "$status" -ne "$code" ] && [ "$status" -ne 0 ]; then
            echo "FAIL SIG$signal at open #$n: exit $status, expected $code" >&2
            failures=$((failures + 1))
        fi
        if [ "$(leftovers)" != 0 ] || [[ $now == mixed* ]] || [ "$(cat R/notes.txt 2>/dev/null)" != mine ]; then
            echo "FAIL SIG$signal at open #$n: R is $now, $(leftovers) staging or temporary files left" >&2
            failures=$((failures + 1))
            left=$((left + 1))
        fi
    done
    # Most opens in the staging folder come before the swap and end the run by the signal.
    if [ "$ended" -lt $(((opens - first) * 3 / 4)) ]; then
        echo "FAIL SIG$signal ended only $ended runs: the signal test tests too little" >&2
        failures=$((failures + 1))
    fi
    printf '%-4s SIG%-4s at each of opens #%d to #%d: %d runs ended by it, %d left a staging folder or a mixed report\n' \
        "$([ "$left" -eq 0 ] && echo ok || echo FAIL)" "$signal" $((first - 2)) "$opens" "$ended" "$left"
done

if [ "$failures" -gt 0 ]; then
    echo "kill-test: $failures failures" >&2
    exit 1
fi
echo "kill-test: every killed run left one whole report"
