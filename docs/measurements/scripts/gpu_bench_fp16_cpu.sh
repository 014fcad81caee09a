#!/usr/bin/env bash
# hwfit's runners on a GPU machine, what the earlier runs lacked: PyTorch eager in fp16 (forward
# passes of the encoders, ViT and ResNet-50; prefill and decode of GPT-2, Qwen2.5-0.5B, Llama-3.2-1B
# and Mistral-7B), fp32 training steps of the vision models and Llama-3.1-8B fp32 decode; then the
# host's CPU at several thread counts: llama.cpp (a CPU build for the host's ISA, carried), tract,
# ONNX Runtime and PyTorch (fp32 and bf16); last, `torch.compile` on the encoders.
# Every record goes into one SQLite database, exported at the end.
#
#   gpu_bench_fp16_cpu.sh HWFIT_BINARY OUT_DIR [SECONDS] [LLAMA_DIR]
#
# LLAMA_DIR holds llama-bench and llama-quantize (built from llama.cpp's source for the host's ISA)
# and gguf-py; the GGUF files are written there from a real config.json with random weights
# (random_gguf.py beside this script), then quantized. Run from the repository root.
. "$(dirname "$0")/budget.sh" 430 "$@"
LL=${5:-.dev/llama}

machine_facts
lscpu >>"$OUT/env.txt" 2>&1

C=docs/measurements/configs
M=crates/hwfit-core/data/models/configs
F=tests/fixtures/hf_configs
B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 300)

# GPU first, while the host is otherwise idle (eager PyTorch is host-bound at small batches).
step 50 "${B[@]}" --precision fp16 --model "$F/bert-base-uncased.json" --model sentence-transformers/all-MiniLM-L6-v2 --model "$F/vit-base-patch16-224.json" --model microsoft/resnet-50 --batch-sizes 1,8,32,128 --seq-lengths 128
step 60 "${B[@]}" --precision fp16 --model "$F/gpt2.json" --model "$C/Qwen__Qwen2.5-0.5B-Instruct.json" --model "$M/meta-llama__Llama-3.2-1B-Instruct.json" --batch-sizes 1,8,32 --seq-lengths 128,512
step 50 "${B[@]}" --precision fp16 --model mistralai/Mistral-7B-Instruct-v0.3 --batch-sizes 1,8,32 --seq-lengths 128,1024
step 45 "${B[@]}" --mode training --precision fp32 --model microsoft/resnet-50 --model "$F/vit-base-patch16-224.json" --batch-sizes 8,32 --seq-lengths 128
step 40 "${B[@]}" --precision fp32 --model "$M/meta-llama__Llama-3.1-8B-Instruct.json" --batch-sizes 1,8 --seq-lengths 128,1024

# The host's CPU: llama.cpp on every core and on 1, 4, 8 of them (Llama-3.2-1B, Q4_0 / Q8_0 / F16).
if [ -x "$LL/llama-bench" ]; then
    llama_ggufs "$LL"
    ldd "$LL/llama-bench" >>"$OUT/env.txt" 2>&1
    L=("$H" bench --database "$DB" --no-microbenchmark --hardware cpu --runtime llama.cpp --llama-bench "$LL/llama-bench")
    step 45 "${L[@]}" --threads 16 --seq-lengths 128,512 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf" --model "$LL/Llama-3.2-1B-Instruct-Q8_0.gguf"
    step 25 "${L[@]}" --threads 16 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-F16.gguf"
    step 25 "${L[@]}" --threads 8 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf"
    step 25 "${L[@]}" --threads 4 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf"
    step 45 "${L[@]}" --threads 1 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf"
fi

# tract (one model a call, so a cut step keeps the others), ONNX Runtime on 1 and 4 threads
# (16 were measured on 2026-11-26), PyTorch on the CPU in fp32 and bf16 (AMX).
for m in sentence-transformers/all-MiniLM-L6-v2 bert-base-uncased gpt2 resnet-50; do
    step 30 "$H" bench --database "$DB" --no-microbenchmark --runtime tract --hardware cpu --budget-ms 200 --model $m
done
for t in 1 4; do
    step 30 "$H" bench --database "$DB" --no-microbenchmark --runtime onnxruntime --hardware cpu --budget-ms 200 --threads $t
done
P=("$H" bench --database "$DB" --no-microbenchmark --runtime pytorch --hardware cpu --budget-ms 300 --threads 16)
step 40 "${P[@]}" --precision bf16 --model "$F/bert-base-uncased.json" --model sentence-transformers/all-MiniLM-L6-v2 --model "$F/gpt2.json" --batch-sizes 1,8 --seq-lengths 128
step 30 "${P[@]}" --precision fp32 --model "$F/bert-base-uncased.json" --model "$F/gpt2.json" --batch-sizes 1,8 --seq-lengths 128

# torch.compile on the encoders (compilation eats most of the step).
step 90 "${B[@]}" --precision bf16 --compile --model "$F/bert-base-uncased.json" --model microsoft/resnet-50 --batch-sizes 1,32 --seq-lengths 128

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
