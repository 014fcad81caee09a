#!/usr/bin/env python3
"""PyTorch reference measurements on one CUDA GPU, for comparison with `hwfit predict`.

Random weights, models built from transformers config objects in code: nothing is downloaded.

  BertConfig()  = bert-base-uncased dims   -> BertModel forward, seq 128, batch 1/8/32
  GPT2Config()  = gpt2                     -> GPT2LMHeadModel prefill (512 tokens) and decode
  LlamaConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
              num_attention_heads=32, num_key_value_heads=8, vocab_size=128256) = Llama-3-8B

Decode: batch 1, a 128-token prompt (prefill, not timed), then 128 new tokens by a manual greedy
KV-cache loop (model(next_token, past_key_values=cache)); tokens/s = 128 / loop time.
Prefill: batch 1, one forward over 512 tokens with use_cache=True; tokens/s = 512 / time.
Every timing: warm-up runs first, torch.cuda.synchronize() around each timed run, wall clock
(time.perf_counter), median of N runs (N >= 10). Plain eager PyTorch, default attention
implementation (sdpa), no torch.compile, no CUDA graphs.

Also: torch.matmul TFLOP/s at 8192^3 (bf16, fp16, fp32 with TF32 off) and device-to-device copy
GB/s (1 GiB tensor; reported counting bytes read + written, and bytes copied).

Second part (--part gputime; run separately, after the first): where the eager loop's time goes.
  * GPU-busy time per step: torch.profiler (CUDA activity) over the same loops, summing every
    kernel's and memcpy's device time; per decode token = sum / 128, per forward = sum / 10. This
    is the time a runtime without launch/Python overhead could not beat with these kernels.
  * CUDA-graph decode (best effort): one decode step with transformers' StaticCache captured in a
    torch.cuda.CUDAGraph and replayed 128 times (median of 10 loops), batch 1, fp16/fp32.

Usage: python3 h100_pytorch_reference.py OUT_DIR [--part reference|gputime]
  (writes OUT_DIR/pytorch_reference.json/.csv, or OUT_DIR/pytorch_gputime.json/.csv)
"""
import csv
import json
import os
import platform
import statistics
import sys
import time

import torch
import transformers
from transformers import (BertConfig, BertModel, GPT2Config, GPT2LMHeadModel, LlamaConfig,
                          LlamaForCausalLM)

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
DEV = "cuda"
ROWS = []
DTYPES = {"fp16": torch.float16, "fp32": torch.float32}


def log(*a):
    print(*a, flush=True)


def timed(fn, warmup=3, runs=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(runs):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), ts


def row(model, precision, workload, batch, seq, throughput, unit, latency_ms, runs, extra=""):
    r = dict(model=model, precision=precision, workload=workload, batch_size=batch,
             seq_length=seq, throughput=round(throughput, 3), throughput_unit=unit,
             latency_ms=round(latency_ms, 4), runs=runs, notes=extra)
    ROWS.append(r)
    log(json.dumps(r))


def env():
    p = torch.cuda.get_device_properties(0)
    return dict(
        torch=torch.__version__, cuda=torch.version.cuda, cudnn=torch.backends.cudnn.version(),
        transformers=transformers.__version__, python=platform.python_version(),
        kernel=platform.release(), gpu=torch.cuda.get_device_name(0),
        capability=f"{p.major}.{p.minor}", sm_count=p.multi_processor_count,
        total_memory_bytes=p.total_memory,
        l2_bytes=getattr(p, "L2_cache_size", None),
        attn_default="sdpa",
    )


@torch.inference_mode()
def primitives():
    n = 8192
    out = {}
    torch.backends.cuda.matmul.allow_tf32 = False
    for name, dt in (("bf16", torch.bfloat16), ("fp16", torch.float16), ("fp32", torch.float32)):
        a = torch.randn(n, n, device=DEV, dtype=dt)
        b = torch.randn(n, n, device=DEV, dtype=dt)
        med, ts = timed(lambda: torch.matmul(a, b), warmup=3, runs=10)
        out[f"matmul_{name}_tflops"] = 2 * n**3 / med / 1e12
        log(f"matmul {name} 8192^3: median {med*1e3:.3f} ms = {out[f'matmul_{name}_tflops']:.1f} TFLOP/s")
        row("matmul-8192", name, "matmul", 1, n, out[f"matmul_{name}_tflops"], "TFLOP/s", med * 1e3, 10,
            "torch.matmul 8192x8192x8192, random normal, TF32 off for fp32")
        del a, b
    nbytes = 1 << 30
    src = torch.empty(nbytes, dtype=torch.uint8, device=DEV)
    dst = torch.empty_like(src)
    med, ts = timed(lambda: dst.copy_(src), warmup=3, runs=20)
    out["d2d_copy_GBps_read_plus_write"] = 2 * nbytes / med / 1e9
    out["d2d_copy_GBps_copied"] = nbytes / med / 1e9
    log(f"d2d copy 1 GiB: median {med*1e3:.3f} ms = {out['d2d_copy_GBps_read_plus_write']:.0f} GB/s (read+write), "
        f"{out['d2d_copy_GBps_copied']:.0f} GB/s copied")
    row("d2d-copy-1GiB", "u8", "copy", 1, 0, out["d2d_copy_GBps_read_plus_write"], "GB/s (read+write)", med * 1e3, 20,
        "dst.copy_(src), 1 GiB uint8 tensors")
    del src, dst
    torch.cuda.empty_cache()
    return out


@torch.inference_mode()
def bert():
    for prec, dt in DTYPES.items():
        model = BertModel(BertConfig()).to(DEV, dt).eval()
        for bs in (1, 8, 32):
            ids = torch.randint(0, 30522, (bs, 128), device=DEV)
            mask = torch.ones_like(ids)
            med, _ = timed(lambda: model(input_ids=ids, attention_mask=mask), warmup=5, runs=20)
            row("bert-base-uncased", prec, "forward", bs, 128, bs / med, "items/s", med * 1e3, 20,
                "BertModel(BertConfig()), no head")
        del model
        torch.cuda.empty_cache()


def decode_and_prefill(name, build, vocab, prompt=128, new=128, prefill_len=512, runs=10, warm=2):
    for prec, dt in DTYPES.items():
        torch.manual_seed(0)
        t0 = time.perf_counter()
        with torch.device(DEV):
            model = build()
        model = model.to(dt).eval()
        torch.cuda.synchronize()
        log(f"{name} {prec}: built in {time.perf_counter()-t0:.1f} s, "
            f"{sum(p.numel() for p in model.parameters())/1e6:.1f} M params, "
            f"{torch.cuda.memory_allocated()/2**30:.1f} GiB allocated")

        with torch.inference_mode():
            ids = torch.randint(0, vocab, (1, prefill_len), device=DEV)
            med, _ = timed(lambda: model(input_ids=ids, use_cache=True), warmup=3, runs=runs)
            row(name, prec, "prefill", 1, prefill_len, prefill_len / med, "tokens/s", med * 1e3, runs,
                "one forward over the prompt, use_cache=True")

            pids = torch.randint(0, vocab, (1, prompt), device=DEV)

            def loop():
                out = model(input_ids=pids, use_cache=True)
                cache = out.past_key_values
                tok = out.logits[:, -1:].argmax(-1)
                torch.cuda.synchronize()
                t = time.perf_counter()
                for _ in range(new):
                    out = model(input_ids=tok, past_key_values=cache, use_cache=True)
                    cache = out.past_key_values
                    tok = out.logits[:, -1:].argmax(-1)
                torch.cuda.synchronize()
                return time.perf_counter() - t

            for _ in range(warm):
                loop()
            ts = [loop() for _ in range(runs)]
            med = statistics.median(ts)
            row(name, prec, "decode", 1, prompt + new, new / med, "tokens/s", med / new * 1e3, runs,
                f"manual greedy KV-cache loop: {prompt}-token prompt then {new} new tokens (context {prompt}->{prompt+new}); latency = per token")
        del model
        torch.cuda.empty_cache()


def gpt2_generate():
    # What a user calls: model.generate (greedy, exactly 128 new tokens), fp16, for comparison with the manual loop.
    with torch.device(DEV):
        model = GPT2LMHeadModel(GPT2Config())
    model = model.half().eval()
    ids = torch.randint(0, 50257, (1, 128), device=DEV)
    f = lambda: model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=128, min_new_tokens=128,
                               do_sample=False, pad_token_id=0)
    med, _ = timed(f, warmup=2, runs=10)
    row("gpt2", "fp16", "decode(generate)", 1, 256, 128 / med, "tokens/s", med / 128 * 1e3, 10,
        "model.generate(max_new_tokens=min_new_tokens=128) after a 128-token prompt; time includes the prefill")
    del model
    torch.cuda.empty_cache()


def section(results, name, fn):
    """Runs one part; a failure is logged (with its traceback) and recorded, and the rest goes on."""
    try:
        out = fn()
        if out is not None:
            results[name] = out
    except Exception:  # noqa: BLE001 - record and continue
        import traceback
        tb = traceback.format_exc()
        log(f"FAILED {name}:\n{tb}")
        results.setdefault("failures", {})[name] = tb
        try:
            torch.cuda.empty_cache()
        except Exception:  # noqa: BLE001 - the CUDA context may be gone (device-side assert)
            pass


def main():
    os.makedirs(OUT, exist_ok=True)
    info = env()
    log(json.dumps(info))
    results = {"env": info}
    llama = LlamaConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                        num_attention_heads=32, num_key_value_heads=8, vocab_size=128256)
    section(results, "primitives", primitives)
    section(results, "bert", bert)
    section(results, "gpt2", lambda: decode_and_prefill("gpt2", lambda: GPT2LMHeadModel(GPT2Config()), 50257))
    section(results, "gpt2_generate", gpt2_generate)
    section(results, "llama", lambda: decode_and_prefill("meta-llama/Meta-Llama-3-8B",
                                                         lambda: LlamaForCausalLM(llama), 128256))
    results["rows"] = ROWS
    with open(os.path.join(OUT, "pytorch_reference.json"), "w") as fh:
        json.dump(results, fh, indent=1)
    with open(os.path.join(OUT, "pytorch_reference.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(ROWS[0].keys()) if ROWS else ["model"])
        w.writeheader()
        w.writerows(ROWS)
    log("done")


class _Skip(Exception):
    pass


def gpu_busy_ms(fn, steps):
    """Sum of device time of every CUDA kernel/memcpy the profiler saw while fn ran, ms per step."""
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        fn()
        torch.cuda.synchronize()
    total_us = 0.0
    kernels = 0
    for e in prof.events():
        dt = getattr(e, "device_type", None)
        if dt is not None and str(dt).endswith("CUDA"):
            total_us += e.time_range.elapsed_us()
            kernels += 1
    try:  # cross-check: the profiler's own per-op sums of self device time
        alt_us = sum(getattr(a, "self_device_time_total", 0.0) for a in prof.key_averages())
        log(f"  gpu-busy: {total_us / 1e3 / steps:.4f} ms/step from {kernels} device events; "
            f"key_averages self device time {alt_us / 1e3 / steps:.4f} ms/step")
    except Exception as exc:  # noqa: BLE001
        log(f"  key_averages cross-check failed: {exc}")
    return total_us / 1e3 / steps, kernels / steps


@torch.inference_mode()
def gputime_bert():
    for prec, dt in DTYPES.items():
        model = BertModel(BertConfig()).to(DEV, dt).eval()
        for bs in (1, 8, 32):
            ids = torch.randint(0, 30522, (bs, 128), device=DEV)
            mask = torch.ones_like(ids)
            f = lambda: model(input_ids=ids, attention_mask=mask)
            for _ in range(5):
                f()
            def ten():
                for _ in range(10):
                    f()
            ms, k = gpu_busy_ms(ten, 10)
            row("bert-base-uncased", prec, "forward (GPU-busy)", bs, 128, bs / (ms / 1e3), "items/s", ms, 10,
                f"torch.profiler: sum of kernel time per forward ({k:.0f} kernels/forward); throughput = batch / that time")
        del model
        torch.cuda.empty_cache()


def static_cache(model, max_len):
    import inspect
    from transformers import StaticCache
    params = inspect.signature(StaticCache.__init__).parameters
    kw = {"config": model.config, "max_cache_len": max_len}
    for name, val in (("max_batch_size", 1), ("batch_size", 1), ("device", model.device), ("dtype", model.dtype)):
        if name in params:
            kw[name] = val
    return StaticCache(**kw)


@torch.inference_mode()
def gputime_decode(name, build, vocab, prompt=128, new=128, runs=10, busy=True, graph=True):
    for prec, dt in DTYPES.items():
        torch.manual_seed(0)
        with torch.device(DEV):
            model = build()
        model = model.to(dt).eval()
        pids = torch.randint(0, vocab, (1, prompt), device=DEV)
        # (a) GPU-busy time of the same eager DynamicCache loop as the reference part.
        try:
            if not busy:
                raise _Skip
            out = model(input_ids=pids, use_cache=True)
            state = {"cache": out.past_key_values, "tok": out.logits[:, -1:].argmax(-1)}
            def steps():
                for _ in range(new):
                    o = model(input_ids=state["tok"], past_key_values=state["cache"], use_cache=True)
                    state["cache"] = o.past_key_values
                    state["tok"] = o.logits[:, -1:].argmax(-1)
            ms, k = gpu_busy_ms(steps, new)
            row(name, prec, "decode (GPU-busy)", 1, prompt + new, 1e3 / ms, "tokens/s", ms, 1,
                f"torch.profiler over the eager loop's {new} decode steps: kernel time per token ({k:.0f} kernels/token)")
        except _Skip:
            pass
        except Exception:
            import traceback
            log(f"FAILED gpu-busy {name} {prec}:\n{traceback.format_exc()}")
        # (b) CUDA-graph replay of one decode step (StaticCache), best effort.
        try:
            if not graph:
                raise _Skip
            cache = static_cache(model, prompt + new + 8)
            pos = torch.arange(prompt, device=DEV)
            o = model(input_ids=pids, past_key_values=cache, cache_position=pos, use_cache=True)
            s_tok = o.logits[:, -1:].argmax(-1).clone()
            s_pos = torch.tensor([prompt], device=DEV)
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(3):
                    model(input_ids=s_tok, past_key_values=cache, cache_position=s_pos, use_cache=True)
            torch.cuda.current_stream().wait_stream(side)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                o = model(input_ids=s_tok, past_key_values=cache, cache_position=s_pos, use_cache=True)
                s_next = o.logits[:, -1:].argmax(-1)
            def loop():
                torch.cuda.synchronize()
                t = time.perf_counter()
                for i in range(new):
                    s_pos.fill_(prompt + i)
                    g.replay()
                    s_tok.copy_(s_next)
                torch.cuda.synchronize()
                return time.perf_counter() - t
            for _ in range(2):
                loop()
            ts = [loop() for _ in range(runs)]
            med = statistics.median(ts)
            row(name, prec, "decode (CUDA graph)", 1, prompt + new, new / med, "tokens/s", med / new * 1e3, runs,
                f"StaticCache(max_cache_len={prompt + new + 8}), one decode step captured in a CUDA graph, replayed {new} times after a {prompt}-token prompt; latency = per token")
            del g, cache
        except _Skip:
            pass
        except Exception:
            import traceback
            log(f"FAILED cuda-graph {name} {prec}:\n{traceback.format_exc()}")
        del model
        torch.cuda.empty_cache()


def dump(results, stem):
    results["rows"] = ROWS
    with open(os.path.join(OUT, stem + ".json"), "w") as fh:
        json.dump(results, fh, indent=1)
    with open(os.path.join(OUT, stem + ".csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(ROWS[0].keys()) if ROWS else ["model"])
        w.writeheader()
        w.writerows(ROWS)


def main_gputime():
    os.makedirs(OUT, exist_ok=True)
    info = env()
    log(json.dumps(info))
    results = {"env": info}
    llama = LlamaConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                        num_attention_heads=32, num_key_value_heads=8, vocab_size=128256)
    section(results, "bert", gputime_bert)
    dump(results, "pytorch_gputime")
    gpt2 = lambda: GPT2LMHeadModel(GPT2Config())
    llama8b = lambda: LlamaForCausalLM(llama)
    section(results, "gpt2", lambda: gputime_decode("gpt2", gpt2, 50257, graph=False))
    dump(results, "pytorch_gputime")
    section(results, "llama", lambda: gputime_decode("meta-llama/Meta-Llama-3-8B", llama8b, 128256, graph=False))
    dump(results, "pytorch_gputime")
    # CUDA graphs last: a failed capture can leave a device-side assert that ends the CUDA context
    # (seen with GPT-2 on transformers 5.17: index_copy_ out of bounds in the StaticCache update).
    section(results, "llama_graph", lambda: gputime_decode("meta-llama/Meta-Llama-3-8B", llama8b, 128256, busy=False))
    section(results, "gpt2_graph", lambda: gputime_decode("gpt2", gpt2, 50257, busy=False))
    dump(results, "pytorch_gputime")
    log("done")


if __name__ == "__main__":
    if "--part" in sys.argv and sys.argv[sys.argv.index("--part") + 1] == "gputime":
        main_gputime()
    else:
        main()
