#!/usr/bin/env python3
"""Fits step_jitter_cv, the coefficient of variation of one server's compute per step
(synchronous data parallelism waits for the slowest server: core/cluster/straggler.h), with every
era's kernel efficiencies held at their recorded values (scripts/fit_cnn_eras.py).

One value for every CNN era. The wait comes from the servers (their CPUs, input pipelines,
network adapters and operating systems: "idle time wasted on waiting for straggling workers",
Chen et al. 2016), not from the kernel library an era describes, and each era's own cross-server
cases are too few to fit it apart (tensorflow_2017 has two sources, pytorch_cudnn8_2021 one,
the others none), so an era without its own value would otherwise price no wait at all.

Only runs across servers depend on it, and presets/validation/cnn_scale_cases.json holds those it
is fitted to (cnn_scale_unseen_cases.json holds runs added after the fit, all "fit": false, and
is not read: they are predictions of the value fitted here): the fit is the least squares of log(predicted / measured) over all of them but those marked
"fit": false (held out to be predicted out of sample; their errors are printed at the fitted
value and at 0), on a grid of 0.0025 from 0 to 0.1. Leave one source out: each source's cases
(a source by its title) are predicted by the fit to the other sources. One-server cases do not
move: the wait counts servers, because counted per GPU, tensorflow_2017's fit to its one-server
cases with step_jitter_cv free beside its kernel parameters (calibrate, as scripts/fit_cnn_eras.py
runs it) returned 0.

Usage: scripts/fit_step_jitter.py [path/to/paleo] [--write] (default build/native/paleo)
"""
import json
import math
import statistics
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


def percent(log_error):
    return math.expm1(log_error) * 100


def main():
    eras_path = ROOT / 'presets' / 'software_eras.json'
    doc = json.loads(eras_path.read_text())
    expressible = [c for c in json.loads((ROOT / 'presets' / 'validation' / 'cnn_scale_cases.json').read_text())['cases']
                   if c.get('expressible', True)]
    cases = [c for c in expressible if c.get('fit', True)]
    held_out = [c for c in expressible if not c.get('fit', True)]
    table = {c['id']: {cv: math.log(predict(PALEO, c, {'step_jitter_cv': cv}) / c['measured']) for cv in GRID}
             for c in expressible}
    sources = sorted({source(c) for c in cases})
    best = fit(cases, table)
    print(f"step_jitter_cv {best:.4f} ({len(cases)} cases, {len(sources)} sources)")
    held_errors, zero_errors = [], []
    for s in sources:
        held = fit([c for c in cases if source(c) != s], table)
        print(f"without {s}: cv {held:.4f}")
        for c in cases:
            if source(c) == s:
                held_errors.append(abs(percent(table[c['id']][held])))
                zero_errors.append(abs(percent(table[c['id']][0.0])))
                print(f"  {c['id']} ({c['request'].get('software_era')}): in sample "
                      f"{percent(table[c['id']][best]):+.1f} %, without its source {percent(table[c['id']][held]):+.1f} %, "
                      f"at 0 {percent(table[c['id']][0.0]):+.1f} %")
    print(f"median |error| without its source {statistics.median(held_errors):.1f} % "
          f"(max {max(held_errors):.1f} %); at 0: {statistics.median(zero_errors):.1f} % (max {max(zero_errors):.1f} %)")
    for c in held_out:
        print(f"held out of the fit: {c['id']} ({c['request'].get('software_era')}): "
              f"{percent(table[c['id']][best]):+.1f} % at {best:.4f}, {percent(table[c['id']][0.0]):+.1f} % at 0")
    if WRITE:
        for era in doc['eras']:
            if 'cnn' in era.get('applies_to', []):
                era['efficiency']['step_jitter_cv'] = round(best, 4)
        eras_path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
