#!/usr/bin/env bash
# Builds llama.cpp's llama-bench and llama-quantize for a CPU without a GPU back-end, on a machine
# that reaches PyPI but not GitHub: the source is the llama.cpp that PyPI's llama-cpp-python sdist
# vendors (0.3.36 on 2026-11-27), trimmed to the CPU back-end and the two tools (the GPU machines
# take at most 64 MiB of working tree). The GPU machines' hosts are Intel Xeons with AVX-512; the
# build names that ISA instead of -march=native (it is built here, on another CPU). AMX is left out:
# in the Firecracker VMs of the GPU machines the AMX build died of SIGILL on its first Q4_0 matrix
# product (2026-11-27), though /proc/cpuinfo lists amx_tile and amx_int8.
#
#   build_llama_cpu.sh OUT_DIR     → OUT_DIR/{llama-bench,llama-quantize,gguf-py,lib/libgomp.so.1}
set -euo pipefail
OUT=$(realpath -m "$1")
WORK=$(mktemp -d)
cd "$WORK"
url=$(curl -s https://pypi.org/pypi/llama-cpp-python/0.3.36/json | python3 -c 'import json,sys; print([u["url"] for u in json.load(sys.stdin)["urls"] if u["packagetype"] == "sdist"][0])')
curl -sL -o src.tar.gz "$url"
tar xzf src.tar.gz --strip-components=2 llama_cpp_python-0.3.36/vendor/llama.cpp
cd llama.cpp
rm -rf models docs tests benches examples app pocs ggml/src/ggml-{et,metal,hexagon,sycl,vulkan,cuda,opencl,cann,musa,zdnn,webgpu,hip,rpc,blas}
find tools -mindepth 1 -maxdepth 1 -type d ! -name llama-bench ! -name quantize -exec rm -rf {} +
printf 'add_subdirectory(llama-bench)\nadd_subdirectory(quantize)\n' >tools/CMakeLists.txt
python3 -m pip install -q cmake
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_APP=OFF \
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=OFF -DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_F16C=ON \
    -DGGML_FMA=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON \
    -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON -DGGML_OPENMP=ON
cmake --build build -j"$(nproc)" --target llama-bench llama-quantize
mkdir -p "$OUT/lib"
cp build/bin/llama-bench build/bin/llama-quantize "$OUT/"
cp -r gguf-py "$OUT/"
cp /lib/x86_64-linux-gnu/libgomp.so.1 "$OUT/lib/"
rm -rf "$WORK"
