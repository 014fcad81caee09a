"""Predicts each row of a runtime_steps.csv-style file with hwfit and compares (a held-out check).

Usage: predict_rows.py HWFIT_BINARY ROWS.csv [PRECISION_MAP_JSON] [-v]

Rows without a seq_length are predicted at hwfit's default; "within ±25 %" is a predicted/measured
throughput ratio in [0.8, 1.25], as compare_records.py counts it. -v lists every row's ratio.
"""
import collections
import csv
import json
import subprocess
import sys
H = sys.argv[1]; path = sys.argv[2]; prec_map = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
rows = list(csv.DictReader(open(path)))
out = []
for r in rows:
    prec = prec_map.get(r['precision'], r['precision'])
    wl = r['workload']
    if wl not in ('forward', 'prefill', 'decode', 'train_step'): continue
    args = [H, 'predict', r['model'], '--device', r['hardware'], '--runtime', r['runtime'], '--precision', prec,
            '--batch-size', r['batch_size'] or '1', '--json']
    if wl == 'train_step': args += ['--mode', 'training']
    else: args += ['--workload', wl]
    seq = r['seq_length']
    if seq: args += ['--seq-length', seq]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        out.append((r, None, p.stderr.strip().splitlines()[-1][:120] if p.stderr.strip() else 'err')); continue
    d = json.loads(p.stdout); pr = list(d['predictions'].values())[0]
    b = float(r['batch_size'] or 1); s = float(d['sequence_length'])
    v = float(r['value'])
    if r['metric'] == 'latency_ms':
        ms = v if r['units'] == 'ms' else v * 1000
        items = b * s if wl == 'prefill' else b
        meas = items / (ms / 1e3)
    else:
        meas = v / s if (r['units'] == 'tokens/s' and wl in ('forward', 'train_step')) else v
    out.append((r, pr['throughput'] / meas, pr['bound'] + ' ' + pr['source']))
by = collections.defaultdict(list)
for r, ratio, why in out:
    if ratio is None: by[('ERR', why)].append(1); continue
    by[(r['runtime'], r['workload'])].append(ratio)
    by[('ALL', '')].append(ratio)
for k, v in sorted(by.items(), key=lambda kv: str(kv[0])):
    if k[0] == 'ERR': print(len(v), 'error:', k[1]); continue
    v = sorted(v); med = v[len(v)//2]
    within = sum(1 for x in v if 0.8 <= x <= 1.25) / len(v)
    print(f"{k[0]:18} {k[1]:11} n={len(v):4} within±25%={within:4.0%} median pred/meas=×{med:.2f}")
if '-v' in sys.argv:
    for r, ratio, why in out:
        if ratio: print(f"{ratio:6.2f} {why:30} {r['runtime']} {r['model'][:30]} {r['precision']} {r['workload']} b{r['batch_size']} s{r['seq_length']} {r['hardware']}")
