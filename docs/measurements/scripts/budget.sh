# Sourced by the GPU bench scripts: a run under a time budget.
#
#   . budget.sh DEFAULT_SECONDS HWFIT_BINARY OUT_DIR [SECONDS]
#
# sets H (the binary), OUT, DB (one SQLite file for every record), LOG and DEADLINE (in $SECONDS,
# SECONDS or DEFAULT_SECONDS from now), and defines `say`, `step`, `machine_facts` and `llama_ggufs`.
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

# machine_facts: the machine's facts (GPU, CPU, memory, PyTorch) into $OUT/env.txt, then hwfit's
# detection into $OUT/detect.json, which the bench steps read (HWFIT_DETECTION).
machine_facts() {
    {
        date -u
        uname -a
        nvidia-smi
        nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id,pci.device_id,driver_version --format=csv
        nproc
        lscpu | grep -E 'Model name|Flags' | cut -c1-400
        free -g
        python3 -c 'import sys, torch, transformers; print(sys.version); print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version()); print("transformers", transformers.__version__); p = torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.total_memory >> 20, "MiB")'
        "$H" --version
    } >"$OUT/env.txt" 2>&1
    say "detect"
    timeout 60 "$H" detect --json --no-cache >"$OUT/detect.json" 2>>"$LOG"
    say "exit $?"
    export HWFIT_DETECTION=$OUT/detect.json
}

# llama_ggufs LLAMA_DIR: Llama-3.2-1B-Instruct as F16, Q4_0 and Q8_0 GGUF files in LLAMA_DIR, written
# from its config.json with random weights (random_gguf.py) and quantized by LLAMA_DIR/llama-quantize.
llama_ggufs() {
    local ll=$1 m=crates/hwfit-core/data/models/configs/meta-llama__Llama-3.2-1B-Instruct.json
    ldd "$ll/llama-bench" | grep -q "not found" && export LD_LIBRARY_PATH=$PWD/$ll/lib
    say "gguf"
    timeout 60 python3 "$(dirname "${BASH_SOURCE[0]}")/random_gguf.py" "$m" "$ll/Llama-3.2-1B-Instruct-F16.gguf" --gguf-py "$ll/gguf-py" >>"$LOG" 2>&1
    for q in Q4_0 Q8_0; do
        timeout 40 "$ll/llama-quantize" "$ll/Llama-3.2-1B-Instruct-F16.gguf" "$ll/Llama-3.2-1B-Instruct-$q.gguf" $q 16 >>"$LOG" 2>&1
    done
    say "gguf done"
}
