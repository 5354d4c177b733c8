#!/usr/bin/env python3
"""Fits the kernel efficiencies of each software era to the published transformer cases that
state it (presets/validation/transformer_cases.json, request field "software_era"): least squares
on log(predicted / measured) over a grid of matmul_ceiling x memory_fraction x kernel_overhead_ms,
with leave-one-out cross-validation (each case predicted by the fit to the others). Prints, per
era, the parameters and both residuals; presets/software_eras.json records them.

Usage: scripts/fit_software_eras.py [path/to/paleo]   (default build/native/paleo; stdlib only)
"""
import json
import math
import sys
from pathlib import Path

from paleo_cases import predict

ROOT = Path(__file__).resolve().parent.parent
PALEO = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / 'build' / 'native' / 'paleo')
CEILINGS = [round(0.30 + 0.02 * i, 2) for i in range(31)]
MEMORY = [0.5, 0.7, 0.85]
OVERHEAD_MS = [0.004, 0.01, 0.02]


def log_errors(cases):
    """{grid point: [log(predicted / measured) per case]}"""
    table = {}
    for c in CEILINGS:
        for m in MEMORY:
            for o in OVERHEAD_MS:
                eff = {'matmul_ceiling': c, 'memory_fraction': m, 'kernel_overhead_ms': o}
                table[(c, m, o)] = [math.log(predict(PALEO, k, eff) / k['measured']) for k in cases]
    return table


def best(table, keep):
    return min(table, key=lambda p: sum(table[p][i] ** 2 for i in keep))


def main():
    cases = json.loads((ROOT / 'presets' / 'validation' / 'transformer_cases.json').read_text())['cases']
    eras = sorted({c['request'].get('software_era') for c in cases} - {None})
    for era in eras:
        group = [c for c in cases if c['request'].get('software_era') == era]
        table = log_errors(group)
        n = len(group)
        fit = best(table, range(n))
        fitted = [math.exp(e) - 1 for e in table[fit]]
        cv = []
        for i in range(n):
            p = best(table, [j for j in range(n) if j != i])
            cv.append(math.exp(table[p][i]) - 1)
        print(json.dumps({
            'era': era,
            'efficiency': dict(zip(['matmul_ceiling', 'memory_fraction', 'kernel_overhead_ms'], fit)),
            'fitted_on': [c['id'] for c in group],
            'residuals': {c['id']: round(r, 4) for c, r in zip(group, fitted)},
            'cv_residuals': {c['id']: round(r, 4) for c, r in zip(group, cv)},
            'median_abs_residual': round(sorted(abs(r) for r in fitted)[n // 2], 4),
            'median_abs_cv_residual': round(sorted(abs(r) for r in cv)[n // 2], 4),
            'max_abs_cv_residual': round(max(abs(r) for r in cv), 4),
        }, indent=1))


if __name__ == '__main__':
    main()
