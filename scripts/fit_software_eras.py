#!/usr/bin/env python3
"""Fits the kernel efficiencies of each transformer software era to the published transformer
cases that name it (presets/validation/transformer*.json and, for the serving eras,
inference*.json; request field "software_era"; a case marked "fit": false is held out): least
squares on log(predicted / measured) over a grid of matmul_ceiling x memory_fraction x
kernel_overhead_ms, and fp8_matmul_ceiling for the eras with fp8 cases. Writes nothing unless
--write; prints, per era, the parameters and three kinds of residual:

- "residuals": in sample (the fit to all the era's cases);
- "cv_residuals": leave one case out (each case predicted by the fit to the era's other cases);
- "loso_residuals": leave one source out (each case predicted by parameters fitted without any
  case of its source: the same paper, benchmark table or performance page, its `source.url`).
  When the era has no case outside that source, the parameters come from the other sources'
  cases of the same device generation and workload (serving or training), pooled over eras (a case's prediction with an
  "efficiency" object laid over does not depend on its era beyond the stack's defaults, which
  its request keeps); with none on that generation, from all other sources.

Each case's prediction at every grid point comes from one `paleo api --lines` process, so the
whole table costs a few hundred thousand requests (about a minute).

Usage: scripts/fit_software_eras.py [path/to/paleo] [--write]   (default build/native/paleo; stdlib only)
"""
import json
import math
import subprocess
import sys
from pathlib import Path

from paleo_cases import compared

ROOT = Path(__file__).resolve().parent.parent
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
PALEO = ARGS[0] if ARGS else str(ROOT / 'build' / 'native' / 'paleo')
WRITE = '--write' in sys.argv
CEILINGS = [round(0.30 + 0.02 * i, 2) for i in range(31)]
MEMORY = [0.5, 0.7, 0.85]
OVERHEAD_MS = [0.004, 0.01, 0.02]
# Serving engines replay their decode steps as CUDA graphs: a kernel costs less than a training
# framework's launch, so their grid reaches lower.
SERVING_OVERHEAD_MS = [0.0005, 0.001, 0.002, 0.004, 0.01]
FP8_CEILINGS = [round(0.30 + 0.025 * i, 3) for i in range(21)]
ERAS_FILE = ROOT / 'presets' / 'software_eras.json'


def load_cases():
    cases = []
    paths = sorted((ROOT / 'presets' / 'validation').glob('transformer*.json'))
    paths += sorted((ROOT / 'presets' / 'validation').glob('inference*.json'))
    for path in paths:
        # "fit": false holds a case out of every era fit: it tests a mechanism (e.g. the ZeRO-3
        # rows of Narayanan et al. 2021, whose era comes from the same stack's other rows).
        cases += [c for c in json.loads(path.read_text())['cases'] if c.get('expressible', True) and c.get('fit', True)]
    return cases


def source_key(case):
    s = case['source']
    return (s.get('url') or s.get('title')).split('#')[0]


def is_fp8(case):
    return case['request'].get('precision') == 'fp8'


def grid_points(case):
    overheads = SERVING_OVERHEAD_MS if case['request'].get('command') == 'inference' else OVERHEAD_MS
    base = [(c, m, o) for c in CEILINGS for m in MEMORY for o in overheads]
    return [p + (f,) for p in base for f in FP8_CEILINGS] if is_fp8(case) else [p + (None,) for p in base]


def efficiency(point):
    c, m, o, f = point
    e = {'matmul_ceiling': c, 'memory_fraction': m, 'kernel_overhead_ms': o}
    if f is not None:
        e['fp8_matmul_ceiling'] = f
    return e


def log_error_table(cases):
    """[{grid point: log(predicted / measured)} per case], from one `paleo api --lines` run."""
    requests, owners = [], []
    for i, case in enumerate(cases):
        for point in grid_points(case):
            requests.append(json.dumps(dict(case['request'], efficiency=efficiency(point))))
            owners.append((i, point))
    out = subprocess.run([PALEO, 'api', '--lines'], input='\n'.join(requests) + '\n', capture_output=True,
                         text=True, check=False).stdout.splitlines()
    if len(out) != len(requests):
        raise SystemExit(f'paleo api --lines answered {len(out)} of {len(requests)} requests')
    table = [dict() for _ in cases]
    for (i, point), line in zip(owners, out):
        response = json.loads(line)
        if not response.get('ok'):
            raise SystemExit(f"{cases[i]['id']}: {response.get('error')}")
        table[i][point] = math.log(compared(response, cases[i]['compare']) / cases[i]['measured'])
    return table


def best_fit(table, keep):
    """The grid point (c, m, o, f) of least squared log error over the cases `keep`: (c, m, o) over
    all of them, f over the fp8 ones (None when there are none)."""
    fp8 = [i for i in keep if next(iter(table[i]))[3] is not None]
    best, best_cost = None, None
    for c in CEILINGS:
        for m in MEMORY:
            for o in sorted(set.intersection(*({point[2] for point in table[i]} for i in keep))):
                cost = sum(table[i][(c, m, o, None)] ** 2 for i in keep if i not in fp8)
                f_best, f_cost = None, 0.0
                if fp8:
                    f_best = min(FP8_CEILINGS, key=lambda f: sum(table[i][(c, m, o, f)] ** 2 for i in fp8))
                    f_cost = sum(table[i][(c, m, o, f_best)] ** 2 for i in fp8)
                if best_cost is None or cost + f_cost < best_cost:
                    best, best_cost = (c, m, o, f_best), cost + f_cost
    return best


def residual(table, i, point):
    """Case i's error at a fitted point; an fp8 case under a fit without fp8 cases runs its fp8
    products at the nearest fp8 ceiling to the bf16 one."""
    c, m, o, f = point
    if next(iter(table[i]))[3] is None:
        f = None
    elif f is None:
        f = min(FP8_CEILINGS, key=lambda x: abs(x - c))
    return math.exp(table[i][(c, m, o, f)]) - 1


def workload(case):
    """Serving cases are predicted from serving sources where there are any, training from training."""
    return 'inference' if case['request'].get('command') == 'inference' else 'training'


def generation(case, devices):
    d = case['request'].get('device', 'H100_SXM')
    return devices.get(d, {}).get('generation') if isinstance(d, str) else None


def main():
    cases = load_cases()
    devices = {d['key']: d for d in json.loads((ROOT / 'presets' / 'devices.json').read_text())['devices']}
    table = log_error_table(cases)
    eras_doc = json.loads(ERAS_FILE.read_text())
    fitted_eras = sorted({c['request'].get('software_era') for c in cases} - {None})
    for era in fitted_eras:
        group = [i for i, c in enumerate(cases) if c['request'].get('software_era') == era]
        fit = best_fit(table, group)
        fitted = {i: residual(table, i, fit) for i in group}
        cv = {i: residual(table, i, best_fit(table, [j for j in group if j != i])) for i in group}
        loso, fallbacks = {}, []
        for source in sorted({source_key(cases[i]) for i in group}):
            held = [i for i in group if source_key(cases[i]) == source]
            rest = [i for i in group if source_key(cases[i]) != source]
            if not rest:
                gens = {generation(cases[i], devices) for i in held}
                kinds = {workload(cases[i]) for i in held}
                rest = [j for j, c in enumerate(cases)
                        if source_key(c) != source and generation(c, devices) in gens and workload(c) in kinds]
                fallbacks.append(f'{source}: its era has no other source; fitted to {len(rest)} cases of '
                                 f'the same generation and workload from other sources' if rest else '')
                if not rest:
                    rest = [j for j, c in enumerate(cases) if source_key(c) != source and workload(c) in kinds]
                    fallbacks[-1] = f'{source}: fitted to all {len(rest)} cases of the same workload from other sources'
                if not rest:
                    rest = [j for j, c in enumerate(cases) if source_key(c) != source]
                    fallbacks[-1] = f'{source}: fitted to all {len(rest)} cases of other sources'
            p = best_fit(table, rest)
            loso.update({i: residual(table, i, p) for i in held})
        c, m, o, f = fit
        eff = {'matmul_ceiling': c, 'memory_fraction': m, 'kernel_overhead_ms': o}
        if f is not None:
            eff['fp8_matmul_ceiling'] = f
        med = lambda xs: sorted(abs(x) for x in xs)[len(xs) // 2]
        record = {
            'efficiency': eff,
            'fitted_on': [cases[i]['id'] for i in group],
            'residuals': {cases[i]['id']: round(fitted[i], 4) for i in group},
            'cv_residuals': {cases[i]['id']: round(cv[i], 4) for i in group},
            'loso_residuals': {cases[i]['id']: round(loso[i], 4) for i in group},
            'median_abs_cv_residual': round(med(cv.values()), 4),
            'max_abs_cv_residual': round(max(abs(x) for x in cv.values()), 4),
            'median_abs_loso_residual': round(med(loso.values()), 4),
            'max_abs_loso_residual': round(max(abs(x) for x in loso.values()), 4),
        }
        if any(fallbacks):
            record['loso_fallback'] = [x for x in fallbacks if x]
        print(json.dumps({'era': era, **{k: v for k, v in record.items() if 'residuals' not in k}}))
        if WRITE:
            doc = next(e for e in eras_doc['eras'] if e['key'] == era)
            doc['efficiency'] = {**doc.get('efficiency', {}), **eff}
            if f is None:
                doc['efficiency'].pop('fp8_matmul_ceiling', None)
            doc.pop('loso_fallback', None)
            doc.update({k: v for k, v in record.items() if k != 'efficiency'})
    if WRITE:
        ERAS_FILE.write_text(json.dumps(eras_doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
