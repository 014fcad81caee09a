#!/usr/bin/env bash
# hwfit's runners on a GPU machine, in one pass: the machine's facts, `hwfit detect --benchmark`
# (NVML + wgpu/Vulkan + the WGSL microbenchmarks), then `hwfit bench` with PyTorch on CUDA
# (inference and training steps, eager; one torch.compile case), ONNX Runtime and tract on the host's
# CPU. Every record goes into one SQLite database, exported at the end.
#
#   gpu_bench.sh HWFIT_BINARY OUT_DIR [SECONDS]
#
# Each step gets what is left of SECONDS (default 460), so the run ends in time and keeps what it
# measured; a step that fails is logged and the next one runs. Models are built from their
# config.json with random weights (nothing is downloaded). Run from the repository root; a Vulkan
# loader in `.gl/*.deb` is unpacked first when present (the GPU machines here have none).
# H, OUT, DB, LOG, the deadline, `say` and `step` (budget.sh beside this script).
. "$(dirname "$0")/budget.sh" 460 "$@"

{
    date -u
    uname -a
    nvidia-smi
    nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,power.limit,pci.bus_id,pci.device_id,driver_version --format=csv
    nproc
    free -g
    python3 -c 'import sys, torch, transformers; print(sys.version); print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version()); print("transformers", transformers.__version__); p = torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.total_memory >> 20, "MiB")'
    python3 -c 'import onnxruntime as o; print("onnxruntime", o.__version__, o.get_available_providers())'
    "$H" --version
} >"$OUT/env.txt" 2>&1

if ls .gl/*.deb >/dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
ldconfig -p | grep -i -E 'vulkan|nvidia-ml' >>"$OUT/env.txt" 2>&1

say "detect --benchmark"
timeout 120 "$H" detect --json --no-cache --benchmark >"$OUT/detect.json" 2>>"$LOG"
say "exit $?"
export HWFIT_DETECTION=$OUT/detect.json

B=("$H" bench --database "$DB" --no-microbenchmark --hardware cuda --runtime pytorch --budget-ms 400)

# Inference, bf16 eager: encoders, a ViT, decoders from 135M to 14B; batch 1/8/32, 128 and 1024
# tokens. Small models share a call (one Python start); a large one failing loses only itself.
I=(--precision bf16 --batch-sizes 1,8,32 --seq-lengths 128,1024)
step 60 "${B[@]}" "${I[@]}" --model BAAI/bge-base-en-v1.5 --model BAAI/bge-large-en-v1.5 --model google/vit-base-patch16-224-in21k
step 90 "${B[@]}" "${I[@]}" --model HuggingFaceTB/SmolLM2-135M-Instruct --model Qwen/Qwen3-0.6B --model meta-llama/Llama-3.2-1B-Instruct
for m in Qwen/Qwen3-4B meta-llama/Llama-3.1-8B-Instruct Qwen/Qwen3-14B; do
    step 60 "${B[@]}" "${I[@]}" --model "$m"
done

# Training steps (AdamW, batch 1/8, 512 tokens): fp32 weights under bf16 autocast, and fp32 throughout.
T=(--mode training --batch-sizes 1,8 --seq-lengths 512)
step 60 "${B[@]}" "${T[@]}" --autocast bf16 --model BAAI/bge-base-en-v1.5 --model HuggingFaceTB/SmolLM2-135M-Instruct
step 60 "${B[@]}" "${T[@]}" --autocast bf16 --model Qwen/Qwen3-0.6B --model meta-llama/Llama-3.2-1B-Instruct
step 45 "${B[@]}" "${T[@]}" --model Qwen/Qwen3-0.6B

# fp32 inference (PyTorch's default math: no TF32 unless asked).
step 45 "${B[@]}" --precision fp32 --model BAAI/bge-base-en-v1.5 --model meta-llama/Llama-3.2-1B-Instruct --batch-sizes 1,8 --seq-lengths 128,1024

# A mixture of experts, bf16 eager.
step 90 "${B[@]}" --precision bf16 --model Qwen/Qwen3-30B-A3B --batch-sizes 1,8 --seq-lengths 128,1024

# ONNX Runtime: CUDA where the installed package has it (an error listing its providers if not),
# then ONNX Runtime and tract on the CPU's cores.
step 30 "$H" bench --database "$DB" --no-microbenchmark --runtime onnxruntime --hardware cuda --model BAAI/bge-base-en-v1.5 --batch-sizes 1 --seq-lengths 128
step 60 "$H" bench --database "$DB" --no-microbenchmark --runtime onnxruntime --hardware cpu --budget-ms 300
step 60 "$H" bench --database "$DB" --no-microbenchmark --runtime tract --hardware cpu --budget-ms 300

# torch.compile on one decoder.
step 120 "${B[@]}" --precision bf16 --compile --model meta-llama/Llama-3.2-1B-Instruct --batch-sizes 1,8 --seq-lengths 1024

say "export"
"$H" db export --database "$DB" --output "$OUT/records.json" >>"$LOG" 2>&1 || "$H" db export --database "$DB" >"$OUT/records.json" 2>>"$LOG"
say "done"
