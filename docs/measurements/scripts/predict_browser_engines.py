"""Predicts the decode steps of data/measured/browser_engines.csv with hwfit, per engine (a check).

Usage: predict_browser_engines.py HWFIT_BINARY [-v]

Takes the rows of one source — webgpu-bench's llama.cpp WebGPU build on an Apple M3 — whose model
resolves and whose format hwfit knows, and predicts each decode step in Chromium (held out: no
Chromium timing of this source is fitted), Firefox and WebKit (their round trips are fitted on these
pairs among others) through `--browser "<engine>, gpu=Apple M3 (10-core GPU)"` at a 100-token
context (prompts of 18-58 tokens, 128 generated). "Within ±25 %" is a predicted/measured rate ratio
in [0.8, 1.25]. -v lists every row.
"""
import collections
import csv
import json
import os
import statistics
import subprocess
import sys

H = sys.argv[1]
verbose = '-v' in sys.argv
here = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(open(os.path.join(here, '../../../data/measured/browser_engines.csv'))))
seen = set()
ratios = collections.defaultdict(list)
skipped = collections.Counter()
for r in rows:
    if 'webgpu-bench' not in r['source'] or not r['metric'].startswith('decode'):
        continue
    repo = r['model'].split('(')[-1].rstrip(')')
    precision = r['precision'].lower()
    for engine, value in ((r['engine'], r['webgpu_value']), ('chromium', r['chromium_webgpu_value'])):
        if not value or (engine, repo, precision) in seen:
            continue
        seen.add((engine, repo, precision))
        args = [H, 'predict', repo, '--browser', f'{engine}, gpu=Apple M3 (10-core GPU)', '--hardware', 'webgpu',
                '--precision', precision, '--workload', 'decode', '--seq-length', '100', '--json']
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode:
            skipped[p.stderr.strip().splitlines()[-1][:70] if p.stderr.strip() else 'error'] += 1
            continue
        predicted = json.loads(p.stdout)['predictions']['webgpu']['throughput']
        ratio = predicted / float(value)
        ratios[engine].append(ratio)
        if verbose:
            print(f'{engine:9s} {repo[:48]:48s} {precision:9s} measured {float(value):6.2f} tok/s predicted {predicted:6.2f} ×{ratio:.2f}')
for engine, rs in sorted(ratios.items()):
    within = sum(0.8 <= x <= 1.25 for x in rs)
    print(f'{engine}: {len(rs)} steps, {within} within ±25 % ({100 * within / len(rs):.0f} %), median predicted/measured ×{statistics.median(rs):.2f}')
for why, n in skipped.most_common():
    print(f'  not predicted ({n}): {why}')
