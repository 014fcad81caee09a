#!/usr/bin/env bash
# hwfit's PyTorch runner on a GPU machine, eager first: the models and shapes PyTorch users run
# (BERT-base, MiniLM, ResNet-50 and GPT-2 at batch 1–256, fp32 and bf16; decoders 0.1–8 B; training
# steps under bf16 autocast and in fp32; ViT-base and BGE-large; a mixture of experts), then one
# `torch.compile` case.
# Every record goes into one SQLite database, exported at the end.
#
#   gpu_bench_eager.sh HWFIT_BINARY OUT_DIR [SECONDS]
#
# Each step gets what is left of SECONDS (default 540), most valuable first, so the run ends in
# time and keeps what it measured; a step that fails is logged and the next one runs. Models are
# built from their config.json with random weights (nothing is downloaded). Run from the
# repository root.
# H, OUT, DB, LOG, the deadline, `say` and `step` (budget.sh beside this script).
. "$(dirname "$0")/budget.sh" 540 "$@"

machine_facts

F=tests/fixtures/hf_configs
B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 400)
ENC=(--model "$F/bert-base-uncased.json" --model sentence-transformers/all-MiniLM-L6-v2 --model microsoft/resnet-50)

# Encoders and a CNN, forward passes: bf16, then PyTorch's default fp32 (no TF32).
step 70 "${B[@]}" --precision bf16 "${ENC[@]}" --batch-sizes 1,8,32,128,256 --seq-lengths 128,512
step 70 "${B[@]}" --precision fp32 "${ENC[@]}" --batch-sizes 1,8,32,128,256 --seq-lengths 128

# Small decoders, bf16: prefill and decode.
D=(--batch-sizes 1,8,32 --seq-lengths 128,1024)
step 80 "${B[@]}" --precision bf16 "${D[@]}" --model "$F/gpt2.json" --model Qwen/Qwen2.5-1.5B-Instruct --model meta-llama/Llama-3.2-1B-Instruct

# Training steps (AdamW, 512 tokens): fp32 weights under bf16 autocast, then fp32 throughout.
T=(--mode training --seq-lengths 512)
step 70 "${B[@]}" "${T[@]}" --autocast bf16 --batch-sizes 1,8,32 --model "$F/bert-base-uncased.json" --model "$F/gpt2.json" --model microsoft/resnet-50
step 60 "${B[@]}" "${T[@]}" --batch-sizes 1,8,32 --model "$F/bert-base-uncased.json" --model "$F/gpt2.json"

# 7–8 B decoders, bf16.
step 60 "${B[@]}" --precision bf16 "${D[@]}" --model meta-llama/Llama-3.1-8B-Instruct
step 60 "${B[@]}" --precision bf16 "${D[@]}" --model mistralai/Mistral-7B-Instruct-v0.3

# More encoders (a vision transformer, a large BERT), forward passes in bf16 and fp32.
V=(--model "$F/vit-base-patch16-224.json" --model BAAI/bge-large-en-v1.5)
step 50 "${B[@]}" --precision bf16 "${V[@]}" --batch-sizes 1,8,32,128 --seq-lengths 128
step 50 "${B[@]}" --precision fp32 "${V[@]}" --batch-sizes 1,8,32,128 --seq-lengths 128

# A 1 B decoder's training step under autocast; fp32 decoders.
step 50 "${B[@]}" "${T[@]}" --autocast bf16 --batch-sizes 1,8 --model meta-llama/Llama-3.2-1B-Instruct
step 45 "${B[@]}" --precision fp32 --batch-sizes 1,8 --seq-lengths 128,1024 --model "$F/gpt2.json" --model meta-llama/Llama-3.2-1B-Instruct

# A mixture of experts (61 GB of bf16 weights), bf16 eager.
step 80 "${B[@]}" --precision bf16 --model Qwen/Qwen3-30B-A3B --batch-sizes 1,8 --seq-lengths 128,1024

# torch.compile on GPT-2 (compilation takes most of the step).
step 150 "${B[@]}" --precision bf16 --compile --model "$F/gpt2.json" --batch-sizes 1,8 --seq-lengths 128

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
