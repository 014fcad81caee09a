#!/usr/bin/env bash
# The second call of 2026-11-27 after gpu_bench_fp16_cpu.sh: llama.cpp on the host's CPU with a
# build without AMX (the AMX build died of SIGILL on Q4_0 in that VM), then the fp16 cases the
# first call's time limits cut (ViT and ResNet-50 forward passes, Llama-3.2-1B prefill and decode).
#
#   gpu_bench_fp16_cpu_rerun.sh HWFIT_BINARY OUT_DIR [SECONDS] [LLAMA_DIR]
. "$(dirname "$0")/budget.sh" 220 "$@"
LL=${5:-.dev/llama}
M=crates/hwfit-core/data/models/configs
F=tests/fixtures/hf_configs
lscpu >"$OUT/env.txt" 2>&1

llama_ggufs "$LL"
L=("$H" bench --database "$DB" --no-microbenchmark --hardware cpu --runtime llama.cpp --llama-bench "$LL/llama-bench")
step 30 "${L[@]}" --threads 16 --seq-lengths 128,512 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf" --model "$LL/Llama-3.2-1B-Instruct-Q8_0.gguf"
step 15 "${L[@]}" --threads 8 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf"
step 15 "${L[@]}" --threads 4 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf"
step 35 "${L[@]}" --threads 1 --seq-lengths 128 --model "$LL/Llama-3.2-1B-Instruct-Q4_0.gguf"

B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 200)
step 45 "${B[@]}" --precision fp16 --model "$F/vit-base-patch16-224.json" --model microsoft/resnet-50 --batch-sizes 1,32 --seq-lengths 128
step 45 "${B[@]}" --precision fp16 --model "$M/meta-llama__Llama-3.2-1B-Instruct.json" --batch-sizes 1,8 --seq-lengths 128

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1
say "done"
