#!/usr/bin/env bash
# Decoders under torch.compile with CUDA graphs (mode reduce-overhead, a StaticCache: the path of
# gpt-fast and of transformers' compiled generation), and mixtures of experts in eager PyTorch (the
# experts as transformers runs them), on one GPU machine. One model per step, so a time limit
# costs one model's cases at most (the runner also keeps each case as it ends).
#
#   gpu_bench_graphs_moe.sh HWFIT_BINARY OUT_DIR [SECONDS]
#
# Configs: the catalog's config.json files; models are built from them with random weights. Run
# from the repository root.
. "$(dirname "$0")/budget.sh" 430 "$@"

machine_facts

B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 200 --precision bf16)
G=("${B[@]}" --compile-mode reduce-overhead --kv-cache static --workloads decode)

# CUDA graphs: decode steps of a 1 B and an 8 B decoder (one graph per batch size).
step 95 "${G[@]}" --model meta-llama/Llama-3.2-1B-Instruct --batch-sizes 1,8 --seq-lengths 512
step 75 "${G[@]}" --model meta-llama/Llama-3.1-8B-Instruct --batch-sizes 1 --seq-lengths 512
# Eager mixtures of experts: prefill and decode.
step 95 "${B[@]}" --model Qwen/Qwen3-30B-A3B --batch-sizes 1,8 --seq-lengths 512
step 70 "${B[@]}" --model openai/gpt-oss-20b --batch-sizes 1,8 --seq-lengths 512
# A 2025 dense decoder, eager.
step 50 "${B[@]}" --model Qwen/Qwen3-8B --batch-sizes 1,8 --seq-lengths 512

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
