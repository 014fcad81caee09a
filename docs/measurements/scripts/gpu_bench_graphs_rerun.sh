#!/usr/bin/env bash
# The CUDA-graph steps of gpu_bench_graphs_moe.sh again (its first call lost them: transformers
# 5.17's StaticLayer has no crop, and the runner now sets the cache's length back itself), and the
# same decoders' decode steps in eager PyTorch on the same host, the pairs' other half.
#
#   gpu_bench_graphs_rerun.sh HWFIT_BINARY OUT_DIR [SECONDS]
. "$(dirname "$0")/budget.sh" 300 "$@"

machine_facts

B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 200 --precision bf16 --workloads decode)
G=("${B[@]}" --compile-mode reduce-overhead --kv-cache static)

step 90 "${G[@]}" --model meta-llama/Llama-3.2-1B-Instruct --batch-sizes 1,8 --seq-lengths 512
step 70 "${G[@]}" --model meta-llama/Llama-3.1-8B-Instruct --batch-sizes 1 --seq-lengths 512
step 60 "${B[@]}" --model meta-llama/Llama-3.2-1B-Instruct --model meta-llama/Llama-3.1-8B-Instruct --batch-sizes 1,8 --seq-lengths 512

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
