#!/usr/bin/env bash
# The second call after gpu_bench_compiled.sh, on a fresh machine: the steps whose caps the first
# call's were too short for (each hwfit process pays 15–20 s of torch import and CUDA start before
# its first case, and torch.compile 20–40 s per graph), with longer caps and fewer models.
#
#   gpu_bench_compiled_rerun.sh HWFIT_BINARY OUT_DIR [SECONDS]
. "$(dirname "$0")/budget.sh" 260 "$@"

machine_facts

M=crates/hwfit-core/data/models/configs
F=tests/fixtures/hf_configs
B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 200)
step 45 "${B[@]}" --precision bf16 --model "$F/bert-base-uncased.json" --batch-sizes 1,8,32 --seq-lengths 128
step 70 "${B[@]}" --compile --precision bf16 --model "$M/sentence-transformers__all-MiniLM-L6-v2.json" --batch-sizes 1,8,32 --seq-lengths 128
step 75 "${B[@]}" --compile --precision bf16 --model "$F/vit-base-patch16-224.json" --batch-sizes 1,32
step 60 "${B[@]}" --compile --precision fp32 --model "$F/bert-base-uncased.json" --batch-sizes 1,8 --seq-lengths 128

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1
say "done"
