"""Writes data/measured/llamacpp_wasm.csv's webgpu-bench rows from the source's machine file.

Usage: webgpu_bench_wasm_rows.py MACHINE_JSON > rows.csv

MACHINE_JSON is abhijitramesh/webgpu-bench's data/machines/apple-m3-16gb-darwin.json at
5f0b1b5fdb078c0789d9adf176342496abe30f1c (git show 5f0b1b5f:data/machines/apple-m3-16gb-darwin.json).
Takes every finished run on the CPU (`nGpuLayers: 0`: llama.cpp's WebAssembly build, SIMD, no
pthreads — one thread) in each browser, one row per rate (decode and prefill), the quote composed of
the record's own key/value text. `model` names the catalog model a GGUF repository converts (left
empty for models outside the catalog); formats are the file's `variant` as written.
"""
import csv
import json
import sys

SOURCE = 'webgpu-bench (abhijitramesh) data/machines/apple-m3-16gb-darwin.json'
REF = ('https://github.com/abhijitramesh/webgpu-bench/blob/5f0b1b5fdb078c0789d9adf176342496abe30f1c/'
       'data/machines/apple-m3-16gb-darwin.json')
CATALOG = {
    'unsloth/DeepSeek-R1-Distill-Qwen-1.5B-GGUF': 'deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B',
    'unsloth/Llama-3.2-1B-Instruct-GGUF': 'meta-llama/Llama-3.2-1B-Instruct',
    'unsloth/Llama-3.2-3B-Instruct-GGUF': 'meta-llama/Llama-3.2-3B-Instruct',
    'unsloth/Qwen3-0.6B-GGUF': 'Qwen/Qwen3-0.6B',
    'unsloth/Qwen3-1.7B-GGUF': 'Qwen/Qwen3-1.7B',
    'unsloth/gemma-3-1b-it-GGUF': 'google/gemma-3-1b-it',
    'unsloth/gemma-3-270m-it-GGUF': 'google/gemma-3-270m',
}
BROWSERS = {
    'chromium': 'Chromium (Playwright bundled build; JSPI WASM build)',
    'firefox': 'Firefox (Playwright bundled build; Asyncify WASM build)',
    'webkit': 'WebKit (Playwright bundled build; Asyncify WASM build)',
}

data = json.load(open(sys.argv[1]))
out = csv.writer(sys.stdout, lineterminator='\n')
out.writerow(['source', 'source_ref', 'quote', 'runtime', 'runtime_version', 'model', 'gguf_repo', 'precision',
              'engine', 'browser', 'hardware', 'wasm_threads', 'workload', 'seq_length', 'value', 'units', 'notes'])
for r in data['results']:
    if r['status'] != 'done' or r['nGpuLayers'] != 0 or not r['metrics'].get('success'):
        continue
    m = r['metrics']
    for workload, key, tokens in (('decode', 'decode_tok_s', m['n_p_eval'] + m['n_eval'] // 2),
                                  ('prefill', 'prefill_tok_s', m['n_p_eval'])):
        quote = (f'"browser": "{r["browser"]}", "model": "{r["model"]}", "variant": "{r["variant"]}", '
                 f'"nGpuLayers": 0, "n_p_eval": {m["n_p_eval"]}, "n_eval": {m["n_eval"]}, "{key}": {m[key]}')
        out.writerow([
            SOURCE, REF, quote, 'llama.cpp (WebAssembly build, webgpu-bench harness)',
            f'llama.cpp {r["llamaCppCommit"][:10]}, {r["buildType"]} build', CATALOG.get(r['repo'], ''), r['repo'],
            r['variant'], r['browser'], BROWSERS[r['browser']],
            'Apple M3 CPU (8-core)', 1, workload, tokens, m[key], 'tokens/s',
            f'{r["timestamp"]}; single run, no warm-up; nCtx {r["nCtx"]}, nPredict {r["nPredict"]}; '
            f'decode seq_length = prompt + half the generated tokens (the mean context); prefill of n_p_eval tokens; '
            f'one thread (the build has no pthreads); file {r["filename"]} ({r["sizeMB"]} MB)',
        ])
