#!/usr/bin/env python3
"""Fits each CNN era's step_jitter_cv, the coefficient of variation of one server's compute per
step (synchronous data parallelism waits for the slowest server: core/cluster/straggler.h), with
the era's kernel efficiencies held at their recorded values (scripts/fit_cnn_eras.py).

Only runs across servers depend on it, and only presets/validation/cnn_scale_cases.json holds
them: the fit is the least squares of log(predicted / measured) over the era's cases there, on a
grid of 0.0025 from 0 to 0.1. Leave one source out: each source's cases (a source by its title)
are predicted by the fit to the era's other sources. An era whose cases there come from fewer than two sources keeps 0
(nothing would predict its cases out of sample). One-server cases do not move: the wait counts
servers, because counted per GPU, tensorflow_2017's fit to its one-server cases with
step_jitter_cv free beside its kernel parameters (calibrate, as scripts/fit_cnn_eras.py runs it)
returned 0.

Usage: scripts/fit_step_jitter.py [path/to/paleo] [--write] (default build/native/paleo)
"""
import json
import math
import sys
from pathlib import Path

from paleo_cases import predict

ROOT = Path(__file__).resolve().parent.parent
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
PALEO = ARGS[0] if ARGS else str(ROOT / 'build' / 'native' / 'paleo')
WRITE = '--write' in sys.argv
GRID = [i * 0.0025 for i in range(0, 41)]


def source(case):
    """A source by its title: Horovod's README (128 GPUs) and docs/benchmarks (512) are one."""
    return case.get('source', {}).get('title')


def fit(cases, table):
    """The grid value with the least sum of squared log errors over `cases`."""
    return min(GRID, key=lambda cv: sum(table[c['id']][cv] ** 2 for c in cases))


def main():
    eras_path = ROOT / 'presets' / 'software_eras.json'
    doc = json.loads(eras_path.read_text())
    cases = [c for c in json.loads((ROOT / 'presets' / 'validation' / 'cnn_scale_cases.json').read_text())['cases']
             if c.get('expressible', True)]
    for era in doc['eras']:
        own = [c for c in cases if c['request'].get('software_era') == era['key']]
        sources = sorted({source(c) for c in own})
        if len(sources) < 2:
            if own:
                print(f"{era['key']}: {len(own)} cases from {len(sources)} source: keeps step_jitter_cv "
                      f"{era['efficiency'].get('step_jitter_cv', 0)}")
            continue
        table = {c['id']: {cv: math.log(predict(PALEO, c, {'step_jitter_cv': cv}) / c['measured'])
                           for cv in GRID} for c in own}
        best = fit(own, table)
        print(f"{era['key']}: step_jitter_cv {best:.4f} ({len(own)} cases, {len(sources)} sources)")
        for s in sources:
            held = fit([c for c in own if source(c) != s], table)
            for c in own:
                if source(c) == s:
                    print(f"  {c['id']}: in sample {math.expm1(table[c['id']][best]) * 100:+.1f} %, "
                          f"without its source (cv {held:.4f}) {math.expm1(table[c['id']][held]) * 100:+.1f} %, "
                          f"at 0 {math.expm1(table[c['id']][0.0]) * 100:+.1f} %")
        if WRITE:
            era['efficiency']['step_jitter_cv'] = round(best, 4)
    if WRITE:
        eras_path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
