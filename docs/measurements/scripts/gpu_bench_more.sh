#!/usr/bin/env bash
# hwfit's PyTorch runner on a GPU machine, the models the first runs lacked: DistilBERT and RoBERTa
# (forward passes at batch 1–128 in bf16 and fp32, training steps under bf16 autocast), Qwen2.5-0.5B
# (prefill and decode, bf16), then the steps earlier runs lost to their time limits (a 1 B decoder's
# training step under autocast, small bf16 decoders, GPT-2 under `torch.compile`).
# Every record goes into one SQLite database, exported at the end.
#
#   gpu_bench_more.sh HWFIT_BINARY OUT_DIR [SECONDS]
#
# Configs: docs/measurements/configs/ (real config.json files, sources in its README) and
# tests/fixtures/hf_configs/; models are built from them with random weights. Run from the
# repository root.
. "$(dirname "$0")/budget.sh" 480 "$@"

machine_facts

C=docs/measurements/configs
F=tests/fixtures/hf_configs
B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 400)
ENC=(--model "$C/distilbert__distilbert-base-uncased.json" --model "$C/FacebookAI__roberta-base.json")

step 60 "${B[@]}" --precision bf16 "${ENC[@]}" --batch-sizes 1,8,32,128 --seq-lengths 128
step 50 "${B[@]}" --precision fp32 "${ENC[@]}" --batch-sizes 1,8,32,128 --seq-lengths 128
step 70 "${B[@]}" --precision bf16 --model "$C/Qwen__Qwen2.5-0.5B-Instruct.json" --batch-sizes 1,8,32 --seq-lengths 128,1024
step 50 "${B[@]}" --mode training --seq-lengths 512 --autocast bf16 --batch-sizes 1,8,32 "${ENC[@]}"
step 70 "${B[@]}" --mode training --seq-lengths 512 --autocast bf16 --batch-sizes 1,8 --model meta-llama/Llama-3.2-1B-Instruct
step 60 "${B[@]}" --precision bf16 --batch-sizes 1,8,32 --seq-lengths 128,1024 --model "$F/gpt2.json" --model meta-llama/Llama-3.2-1B-Instruct
step 110 "${B[@]}" --precision bf16 --compile --model "$F/gpt2.json" --batch-sizes 1,8 --seq-lengths 128

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
