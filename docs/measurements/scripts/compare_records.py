#!/usr/bin/env python3
"""Every runner record of a file against `hwfit predict` for the same case on the same catalog device.

    compare_records.py HWFIT_BINARY RECORDS.json [RECORDS.json …] [--device ID] [--markdown]

Each record's case (model, workload, batch, sequence, the precision its step computes in: an
autocast type over fp32 weights counts as that type) is predicted with `--runtime pytorch` (or
`pytorch-compiled` for `torch.compile` records) and `--no-detect` on `--device` (default: the
record's own `device`). Prints one line per case and a summary per workload: the share within ±25 %
and the median of predicted / measured.
"""
import argparse
import json
import statistics
import subprocess
import sys


def computed_precision(record):
    mode = record.get("math_mode") or ""
    if mode.startswith("autocast "):
        return mode.split()[1]
    return record["precision"]


def predict(binary, record, device):
    runtime = "pytorch-compiled" if str(record.get("execution", "")).startswith("torch.compile") else "pytorch"
    args = [
        binary, "predict", record["model_name"], "--device", device, "--runtime", runtime,
        "--workload", record["workload"], "--batch-size", str(record["batch_size"]),
        "--precision", computed_precision(record), "--no-detect", "--json",
    ]
    if record.get("sequence_length"):
        args += ["--seq-length", str(record["sequence_length"])]
    if record["workload"] == "train-step":
        args += ["--mode", "training"]
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr else "failed"
    answer = json.loads(out.stdout)
    return next(iter(answer["predictions"].values())), None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("records", nargs="+")
    p.add_argument("--device")
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args()
    records = []
    for path in a.records:
        with open(path) as f:
            data = json.load(f)
        records += data if isinstance(data, list) else data["records"]
    by_workload = {}
    if a.markdown:
        print("| model | workload | precision | batch | seq | p50 ms | measured | hwfit | predicted / measured | bound |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(records, key=lambda r: (r["workload"], r["model_name"], computed_precision(r), r["batch_size"], r.get("sequence_length") or 0)):
        pred, err = predict(a.binary, r, a.device or r["device"])
        precision = computed_precision(r) + (" (compile)" if str(r.get("execution", "")).startswith("torch.compile") else "")
        seq = r.get("sequence_length") or "–"
        if pred is None:
            print(f"{r['model_name']} {r['workload']} {precision} b{r['batch_size']} s{seq}: {err}", file=sys.stderr)
            continue
        ratio = pred["throughput"] / r["throughput"]
        by_workload.setdefault(r["workload"], []).append(ratio)
        if a.markdown:
            print(f"| {r['model_name']} | {r['workload']} | {precision} | {r['batch_size']} | {seq} | "
                  f"{r['latency_p50_ms']:.2f} | {r['throughput']:.1f} {r['throughput_unit']} | {pred['throughput']:.1f} | ×{ratio:.2f} | {pred['bound']} |")
        else:
            print(f"{r['model_name']:40} {r['workload']:10} {precision:16} b{r['batch_size']:<4} s{seq!s:5} "
                  f"{r['latency_p50_ms']:9.2f} ms  measured {r['throughput']:10.1f}  hwfit {pred['throughput']:10.1f}  ×{ratio:.2f} {pred['bound']}")
    print()
    every = []
    for workload, ratios in sorted(by_workload.items()):
        every += ratios
        within = sum(0.8 <= x <= 1.25 for x in ratios) / len(ratios)
        print(f"{workload:10} {len(ratios):4} cases  {within:5.0%} within ±25 %  median ×{statistics.median(ratios):.2f}")
    if every:
        within = sum(0.8 <= x <= 1.25 for x in every) / len(every)
        print(f"{'all':10} {len(every):4} cases  {within:5.0%} within ±25 %  median ×{statistics.median(every):.2f}")


if __name__ == "__main__":
    main()
