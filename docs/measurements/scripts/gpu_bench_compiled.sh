#!/usr/bin/env bash
# PyTorch under torch.compile on a GPU machine, beside eager runs of the same models on the same
# host (earlier machines' hosts issued eager operators up to twice as fast as each other, so the
# eager/compiled pair is taken on one machine): encoders, a CNN, ViT, a 1 B decoder (prefill and
# decode), an encoder's autocast training step, and fp32 forward passes. One model per step, so a
# time limit costs one model's cases at most (the runner also keeps each case as it ends).
#
#   gpu_bench_compiled.sh HWFIT_BINARY OUT_DIR [SECONDS]
#
# Configs: the catalog's config.json files and tests/fixtures/hf_configs/; models are built from
# them with random weights. Run from the repository root.
. "$(dirname "$0")/budget.sh" 480 "$@"

machine_facts

M=crates/hwfit-core/data/models/configs
F=tests/fixtures/hf_configs
B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 200)
BERT=(--model "$F/bert-base-uncased.json")
LLAMA=(--model "$M/meta-llama__Llama-3.2-1B-Instruct.json")
MINILM=(--model "$M/sentence-transformers__all-MiniLM-L6-v2.json")

# Eager on this host first: the pairs' other half.
step 30 "${B[@]}" --precision bf16 "${BERT[@]}" "${MINILM[@]}" --batch-sizes 1,8,32 --seq-lengths 128
step 40 "${B[@]}" --precision bf16 "${LLAMA[@]}" --batch-sizes 1,8 --seq-lengths 128
step 25 "${B[@]}" --precision bf16 --model microsoft/resnet-50 --model "$F/vit-base-patch16-224.json" --batch-sizes 1,32
# Compiled.
C=("${B[@]}" --compile)
step 70 "${C[@]}" --precision bf16 "${BERT[@]}" --batch-sizes 1,8,32 --seq-lengths 128
step 110 "${C[@]}" --precision bf16 "${LLAMA[@]}" --batch-sizes 1,8 --seq-lengths 128
step 60 "${C[@]}" --precision bf16 --model microsoft/resnet-50 --batch-sizes 1,32
step 50 "${C[@]}" --precision bf16 --model "$F/vit-base-patch16-224.json" --batch-sizes 1,32
step 45 "${C[@]}" --precision bf16 "${MINILM[@]}" --batch-sizes 1,8,32 --seq-lengths 128
step 70 "${C[@]}" --mode training --autocast bf16 "${BERT[@]}" --batch-sizes 8 --seq-lengths 512
step 50 "${C[@]}" --precision fp32 "${BERT[@]}" --batch-sizes 1,8 --seq-lengths 128

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
