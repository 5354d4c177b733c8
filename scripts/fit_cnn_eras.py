#!/usr/bin/env python3
"""Fits the kernel efficiencies of each CNN software era to the published CNN cases that state it
(presets/validation/cnn_cases.json, expressible cases whose request names "software_era"): least
squares on log(predicted / measured) over a grid of matmul_ceiling x tile x short_k x
memory_fraction x kernel_overhead_ms. Cross-validation leaves out one configuration at a time (the cases sharing
net, device, precision and batch: the 1-GPU and 8-GPU runs of one configuration go out together,
so that neither predicts the other) and predicts it with the fit to the rest. Prints, per era, the
parameters and both residuals; with --write, records them in presets/software_eras.json.

Usage: scripts/fit_cnn_eras.py [path/to/paleo] [--write]   (default build/native/paleo; stdlib only)
"""
import json
import math
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from paleo_cases import predict

ROOT = Path(__file__).resolve().parent.parent
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
PALEO = ARGS[0] if ARGS else str(ROOT / 'build' / 'native' / 'paleo')
WRITE = '--write' in sys.argv
CEILINGS = [round(0.20 + 0.04 * i, 2) for i in range(21)]  # 0.20 .. 1.00
TILES = [64, 128]
SHORT_K = [16, 64]
MEMORY = [0.5, 0.7, 0.85]
OVERHEAD_MS = [0.005, 0.01, 0.02, 0.04, 0.08, 0.16]
PARAMS = ['matmul_ceiling', 'tile', 'short_k', 'memory_fraction', 'kernel_overhead_ms']


def log_errors(cases):
    """{grid point: [log(predicted / measured) per case]}"""
    points = [(c, t, k, m, o) for c in CEILINGS for t in TILES for k in SHORT_K for m in MEMORY for o in OVERHEAD_MS]
    jobs = [(p, k) for p in points for k in cases]

    def run(job):
        p, k = job
        return math.log(predict(PALEO, k, dict(zip(PARAMS, p))) / k['measured'])

    with ThreadPoolExecutor(max_workers=4) as pool:
        errors = list(pool.map(run, jobs))
    n = len(cases)
    return {p: errors[i * n:(i + 1) * n] for i, p in enumerate(points)}


def best(table, keep):
    return min(table, key=lambda p: sum(table[p][i] ** 2 for i in keep))


def configuration(case):
    r = case['request']
    return (json.dumps(r['net']), json.dumps(r.get('device')), json.dumps(r.get('precision')), r.get('batch_size'))


def median(values):
    s = sorted(values)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def fit_era(era, group):
    table = log_errors(group)
    n = len(group)
    fit = best(table, range(n))
    fitted = [math.exp(e) - 1 for e in table[fit]]
    cv = [0.0] * n
    for conf in {configuration(c) for c in group}:
        out = [i for i in range(n) if configuration(group[i]) == conf]
        p = best(table, [j for j in range(n) if j not in out])
        for i in out:
            cv[i] = math.exp(table[p][i]) - 1
    return {
        'era': era,
        'efficiency': dict(zip(PARAMS, fit)),
        'fitted_on': [c['id'] for c in group],
        'residuals': {c['id']: round(r, 4) for c, r in zip(group, fitted)},
        'cv_residuals': {c['id']: round(r, 4) for c, r in zip(group, cv)},
        'median_abs_residual': round(median([abs(r) for r in fitted]), 4),
        'median_abs_cv_residual': round(median([abs(r) for r in cv]), 4),
        'max_abs_cv_residual': round(max(abs(r) for r in cv), 4),
    }


def main():
    cases = json.loads((ROOT / 'presets' / 'validation' / 'cnn_cases.json').read_text())['cases']
    cases = [c for c in cases if c.get('expressible', True) and 'software_era' in c['request']]
    eras = sorted({c['request']['software_era'] for c in cases})
    results = [fit_era(era, [c for c in cases if c['request']['software_era'] == era]) for era in eras]
    print(json.dumps(results, indent=1))
    if not WRITE:
        return
    path = ROOT / 'presets' / 'software_eras.json'
    doc = json.loads(path.read_text())
    for r in results:
        for e in doc['eras']:
            if e['key'] == r['era']:
                for key in ['efficiency', 'fitted_on', 'residuals', 'cv_residuals', 'median_abs_cv_residual',
                            'max_abs_cv_residual']:
                    e[key] = r[key]
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
