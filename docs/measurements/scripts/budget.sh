# Sourced by the GPU bench scripts: a run under a time budget. Expects DEADLINE (in $SECONDS)
# and LOG to be set.

say() { echo "== $(date -u +%H:%M:%S) [$SECONDS s] $*" | tee -a "$LOG"; }

# step CAP_SECONDS COMMAND…: runs COMMAND for at most CAP seconds and what the budget leaves.
step() {
    local cap=$1
    shift
    local left=$((DEADLINE - SECONDS))
    if [ "$left" -lt 15 ]; then
        say "skipped (budget spent): $*"
        return
    fi
    [ "$cap" -gt "$left" ] && cap=$left
    say "run (≤ ${cap} s): $*"
    timeout --kill-after=5 "$cap" "$@" >>"$LOG" 2>&1
    say "exit $?"
}
