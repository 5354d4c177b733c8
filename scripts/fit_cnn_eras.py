#!/usr/bin/env python3
"""Fits the kernel efficiencies of each CNN software era to the CNN cases that state it
(presets/validation/cnn_cases.json, optcnn_cases.json and measured_hopper_cases.json, expressible cases whose request names "software_era"), with
Paleo's own `calibrate` command (docs/calibration.md: robust least squares on log(predicted /
measured), Nelder-Mead), from the era's current parameters. The era's `fit` list in
presets/software_eras.json names the parameters fitted (default: matmul_ceiling, memory_fraction,
kernel_overhead_ms); the others keep their values.

Cross-validation leaves out one configuration at a time (the cases sharing net, device, precision
and batch: forward-only and forward+backward rows, or 1- and 8-GPU runs, of one configuration go
out together, so that neither predicts the other; for single kernels, all of one kind on one
device), fits the rest, starting from the fit to all, and predicts the one left out.
An era refitted on a device generation ("by_generation") fits that generation's cases apart, from
the era's parameters, moving only the generation's "fit" list; the era's own fit leaves them out.
Prints, per era (and generation), the parameters and both residuals; with --write, records them
in presets/software_eras.json.

Usage: scripts/fit_cnn_eras.py [path/to/paleo] [--write] [--era KEY]   (default build/native/paleo)
"""
import json
import subprocess
import sys
from pathlib import Path

from paleo_cases import era_fits, predict

ROOT = Path(__file__).resolve().parent.parent
ONLY = sys.argv[sys.argv.index('--era') + 1] if '--era' in sys.argv else None
ARGS = [a for a in sys.argv[1:] if not a.startswith('--') and a != ONLY]
PALEO = ARGS[0] if ARGS else str(ROOT / 'build' / 'native' / 'paleo')
WRITE = '--write' in sys.argv
# cnn_scale_cases.json (data parallelism across nodes) is held out of every fit: its cases are
# predictions of the eras fitted here (docs/validation.md).
CASE_FILES = ['cnn_cases.json', 'optcnn_cases.json', 'measured_hopper_cases.json']
DEFAULT_FIT = ['conv_ceiling', 'memory_fraction', 'kernel_overhead_ms']


def api(request):
    out = subprocess.run([PALEO, 'api'], input=json.dumps(request), capture_output=True, text=True, check=False)
    response = json.loads(out.stdout)
    if not response.get('ok'):
        raise SystemExit(f"calibrate failed: {response.get('error')}")
    return response


def calibrate(group, parameters, start):
    """The efficiency `calibrate` fits to `group`, starting from `start`."""
    measurements = [{'request': c['request'], 'compare': c['compare'], 'measured': c['measured'], 'label': c['id']}
                    for c in group]
    # The API caps requests x (evaluations + 2) (docs/api.md): a large group searches in rounds,
    # each from where the last stopped.
    distinct = len({json.dumps(c['request'], sort_keys=True) for c in group})
    evaluations = min(600, 20000 // distinct - 2)
    for _ in range(max(1, 600 // evaluations)):
        response = api({'command': 'calibrate', 'measurements': measurements, 'parameters': parameters,
                        'efficiency': start, 'max_evaluations': evaluations})
        start = response['profile']['efficiency']
        if not any('before converging' in w for w in response.get('warnings', [])):
            break
    return start


def configuration(case):
    r = case['request']
    if case['family'] == 'kernels':  # one-layer nets: a device's kernels of one kind go out together
        return (case['category'], json.dumps(r.get('device')))
    return (json.dumps(r['net']), json.dumps(r.get('device')), json.dumps(r.get('precision')), r.get('batch_size'))


def median(values):
    s = sorted(values)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def residual(case, efficiency):
    return predict(PALEO, case, efficiency) / case['measured'] - 1


def generation(case, devices):
    """The device generation of a case's request (a preset key or a device object)."""
    device = case['request'].get('device')
    return device.get('generation') if isinstance(device, dict) else devices.get(device, {}).get('generation')


def fit_era(era, group, parameters=None, start=None):
    parameters = parameters or era.get('fit', DEFAULT_FIT)
    start = start or era['efficiency']
    fit = calibrate(group, parameters, start)
    fitted = [residual(c, fit) for c in group]
    cv = [0.0] * len(group)
    configurations = {configuration(c) for c in group}
    for conf in configurations:
        out = [i for i, c in enumerate(group) if configuration(c) == conf]
        rest = [c for i, c in enumerate(group) if i not in out]
        held = calibrate(rest, parameters, fit) if rest else start  # from the full fit: fewer steps
        for i in out:
            cv[i] = residual(group[i], held)
    return {
        'era': era['key'],
        'efficiency': fit,
        'fitted_on': [c['id'] for c in group],
        'residuals': {c['id']: round(r, 4) for c, r in zip(group, fitted)},
        'cv_residuals': {c['id']: round(r, 4) for c, r in zip(group, cv)},
        'median_abs_residual': round(median([abs(r) for r in fitted]), 4),
        'median_abs_cv_residual': round(median([abs(r) for r in cv]), 4),
        'max_abs_cv_residual': round(max(abs(r) for r in cv), 4),
    }


def main():
    cases = [c for name in CASE_FILES
             for c in json.loads((ROOT / 'presets' / 'validation' / name).read_text())['cases']]
    cases = [c for c in cases if c.get('expressible', True) and 'software_era' in c['request']]
    path = ROOT / 'presets' / 'software_eras.json'
    doc = json.loads(path.read_text())
    devices = {d['key']: d for d in json.loads((ROOT / 'presets' / 'devices.json').read_text())['devices']}
    results = []
    for era in doc['eras']:
        if ONLY and era['key'] != ONLY:
            continue
        group = [c for c in cases if c['request']['software_era'] == era['key']]
        refits = dict(era_fits(era)[1:])
        base = [c for c in group if generation(c, devices) not in refits]
        era_now = era['efficiency']
        if base:
            own = fit_era(era, base)
            results.append((era, None, own))
            era_now = own['efficiency']
        # A generation the era was refitted on: its cases alone, from the era's parameters (as
        # just fitted) with the generation's laid over; only the generation's `fit` list moves.
        for gen, refit in refits.items():
            cases_of_gen = [c for c in group if generation(c, devices) == gen]
            if not cases_of_gen:
                continue
            parameters = refit.get('fit', era.get('fit', DEFAULT_FIT))
            result = fit_era(era, cases_of_gen, parameters, dict(era_now, **refit['efficiency']))
            result['efficiency'] = {p: result['efficiency'][p] for p in parameters}
            results.append((era, gen, result))
    print(json.dumps([dict(r, generation=gen) for _, gen, r in results], indent=1))
    if not WRITE:
        return
    for era, gen, r in results:
        target = era['by_generation'][gen] if gen else era
        for key in ['efficiency', 'fitted_on', 'residuals', 'cv_residuals', 'median_abs_cv_residual',
                    'max_abs_cv_residual']:
            target[key] = r[key]
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
