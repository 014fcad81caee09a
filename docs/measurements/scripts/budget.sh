# Sourced by the GPU bench scripts: a run under a time budget.
#
#   . budget.sh DEFAULT_SECONDS HWFIT_BINARY OUT_DIR [SECONDS]
#
# sets H (the binary), OUT, DB (one SQLite file for every record), LOG and DEADLINE (in $SECONDS,
# SECONDS or DEFAULT_SECONDS from now), and defines `say` and `step`.
set -u
H=$2
OUT=$3
BUDGET=${4:-$1}
DB=$OUT/bench.sqlite
LOG=$OUT/log.txt
DEADLINE=$((SECONDS + BUDGET))
export NO_COLOR=1 PYTHONUNBUFFERED=1

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
