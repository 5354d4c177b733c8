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

Leave one source out (loso_residuals): a case predicted by parameters fitted without any case of
its source. A source is the case's `source.url`, or its `source.title` where it has no url: one
paper (OptCNN, arXiv 1802.04924: its Figure 7 bars, fitted or held out), one benchmark table or
repository (convnet-benchmarks; Caffe2's convnet_benchmarks.py; cnn-benchmarks, all its GPUs and
cuDNN versions together; TensorFlow's benchmark page, its DGX-1 and K80 tables together), one
DeepLearningExamples model README (ResNet-50 v1.5, ResNeXt-101, SE-ResNeXt-101: each its V100 and
A100 tables), and Paleo's own measurement campaign (docs/measurements.md: H100 and H200 nets and
kernels together). For each source S of a fit's cases (and of the era's cases held out of the
fit, such as OptCNN's OWT bars, when S is among the fit's sources), the fit is rerun without S's
cases, from its parameters, and predicts them. Where no case of the fit remains outside S (every
era but cudnn_r4_2016 and pytorch_cudnn8_2021 has one source), each case of S is predicted, with
its own request (its era's conv_algorithms), with the whole `efficiency` of the first of these fits
that keeps a case outside S, refitted without S where it holds some of S's cases:
  (a) the default CNN era of the case's device generation (its by_generation refit on that
      generation if it has one), then any other fit with cases on that generation, then the same
      for each earlier generation (Hopper -> Ada -> ... -> Kepler);
  (b) else the case's own fit list refitted to every CNN case of the other sources.
The whole efficiency, not only the fitted parameters: an era fitted to one source had its other
parameters read off that source too (pytorch_cudnn9_2025's launch interval, matmul ceiling,
pooling rate: docs/measurements.md; legion_cudnn7_2018's transfer_serialization: the OptCNN
paper). `loso_fallback` names, per source, the fit that predicted it.

Prints, per era (and generation), the parameters and the residuals; with --write, records them
in presets/software_eras.json. With --loso, only the leave-one-source-out figures, from the
recorded parameters (nothing else refitted; --write then adds only the loso fields). With
--keep-unfitted (printed, for comparison; refused with --write), a fallback replaces only the
parameters of the era's fit list and keeps its others. With --same-cudnn (a comparison, refused
with --write), a fallback on the case's generation whose stack runs the same cuDNN major version
(the era's "cudnn") comes before the generation's default era. With --attribute (a diagnosis,
refused with --write), each source a fallback predicts is priced again once per parameter where the
fallback's efficiency and the fit's differ, with that one parameter the fit's own: on stderr, which
term makes the error (docs/validation.md, "Why the CNN eras do not transfer").

Usage: scripts/fit_cnn_eras.py [path/to/paleo] [--write] [--loso] [--keep-unfitted] [--same-cudnn]
       [--attribute] [--era KEY]
(default build/native/paleo)
"""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from paleo_cases import era_fits, predict

ROOT = Path(__file__).resolve().parent.parent
ONLY = sys.argv[sys.argv.index('--era') + 1] if '--era' in sys.argv else None
ARGS = [a for a in sys.argv[1:] if not a.startswith('--') and a != ONLY]
PALEO = ARGS[0] if ARGS else str(ROOT / 'build' / 'native' / 'paleo')
WRITE = '--write' in sys.argv
# cnn_scale_cases.json (data parallelism across nodes) and cnn_scale_unseen_cases.json (runs added
# after the eras were fitted) are held out of every fit: their cases are predictions of the eras
# fitted here (docs/validation.md). A case marked "fit": false in a fitted file is held out too.
LOSO_ONLY = '--loso' in sys.argv
KEEP_UNFITTED = '--keep-unfitted' in sys.argv  # a comparison only: not what --write records
SAME_CUDNN = '--same-cudnn' in sys.argv  # a comparison only: not what --write records
ATTRIBUTE = '--attribute' in sys.argv  # a diagnosis only: not what --write records
CASE_FILES = ['cnn_cases.json', 'optcnn_cases.json', 'measured_hopper_cases.json']
HELD_OUT_FILES = ['optcnn_baseline_cases.json']  # not fitted, but from a fitted source
GENERATIONS = ['kepler', 'maxwell', 'pascal', 'volta', 'turing', 'ampere', 'ada', 'hopper', 'blackwell']
WORKERS = 2  # calibrate runs are single-threaded: two at a time
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
    configurations = sorted({configuration(c) for c in group}, key=str)

    def held_out(conf):  # from the full fit: fewer steps
        rest = [c for c in group if configuration(c) != conf]
        return calibrate(rest, parameters, fit) if rest else start

    with ThreadPoolExecutor(WORKERS) as pool:
        for conf, held in zip(configurations, pool.map(held_out, configurations)):
            for i, c in enumerate(group):
                if configuration(c) == conf:
                    cv[i] = residual(c, held)
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


def source(case):
    """The source a case came from: its url, or its title where it has none."""
    s = case.get('source', {})
    return s.get('url') or s.get('title')


def era_fit_list(doc, cases, held, devices):
    """Every fit of presets/software_eras.json's CNN eras: the era's own (cases on generations it
    was not refitted on) and one per by_generation refit, each with its cases, the cases held out
    of it that come from one of its sources, its fit list and its whole efficiency as recorded."""
    fits = []
    for era in doc['eras']:
        if 'cnn' not in era.get('applies_to', ['cnn']):
            continue
        refits = dict(era_fits(era)[1:])
        for gen, refit in [(None, era), *refits.items()]:
            def ours(c):
                g = generation(c, devices)
                return c['request']['software_era'] == era['key'] and (g == gen if gen else g not in refits)
            group = [c for c in cases if ours(c)]
            sources = {source(c) for c in group}
            fits.append({
                'era': era, 'generation': gen, 'name': era['key'] + (f' on {gen}' if gen else ''),
                'group': group, 'held': [c for c in held if ours(c) and source(c) in sources],
                'parameters': refit.get('fit', era.get('fit', DEFAULT_FIT)),
                'efficiency': dict(era['efficiency'], **refit['efficiency']) if gen else dict(era['efficiency']),
                'generations': {generation(c, devices) for c in group},
            })
    return fits


def default_era_key(doc, gen):
    for era in doc['eras']:
        if 'cnn' in era.get('applies_to', ['cnn']) and gen in era.get('generations', []):
            return era['key']
    return None


def fallback_candidates(doc, fits, fit, gen):
    """Fits to predict a case on `gen` from when its own fit has no case outside its source: the
    default era of the generation, the other fits with cases on it, then the same for each earlier
    generation. With --same-cudnn, first the fits with cases on the generation whose stack runs the
    same cuDNN major version ("cudnn")."""
    order = GENERATIONS[:GENERATIONS.index(gen) + 1][::-1] if gen in GENERATIONS else []
    cudnn = fit['era'].get('cudnn')
    out = [(f, gen) for f in fits if SAME_CUDNN and f is not fit and cudnn and f['era'].get('cudnn') == cudnn
           and gen in f['generations']]
    for g in order:
        key = default_era_key(doc, g)
        of_default = [f for f in fits if f['era']['key'] == key]
        default = [f for f in of_default if f['generation'] == g] or [f for f in of_default if not f['generation']]
        others = [f for f in fits if g in f['generations'] and f not in default]
        out += [(f, g) for f in default + others if f is not fit and all(f is not o for o, _ in out)]
    return out


def leave_one_source_out(doc, fits, selected, devices):
    """loso_residuals, loso_fallback and their medians for each selected fit."""
    refits = {}  # (fit name, source) -> the efficiency fitted without that source

    def without(f, s):
        rest = [c for c in f['group'] if source(c) != s]
        if not rest:
            return None
        return ('as recorded', f['efficiency']) if len(rest) == len(f['group']) else ('refit', (f['name'], s))

    # Plan each (fit, source): its own fit without the source, else a fallback per case.
    plans, jobs = [], {}
    for fit in selected:
        for s in sorted({source(c) for c in fit['group'] + fit['held']}):
            own = without(fit, s)
            for c in [c for c in fit['group'] + fit['held'] if source(c) == s]:
                how, note = own, None
                if not how:
                    for other, g in fallback_candidates(doc, fits, fit, generation(c, devices)):
                        how = without(other, s)
                        if how:
                            kind = ('default era' if other['era']['key'] == default_era_key(doc, g)
                                    else 'same cuDNN' if SAME_CUDNN and other['era'].get('cudnn') == fit['era'].get('cudnn')
                                    else 'fitted on cases')
                            note = f"{other['name']} ({kind} of {g})"
                            break
                if not how:  # (b): the case's fit list refitted to every other source's cases
                    how, note = ('refit', ('all other sources', s)), 'the fit list refitted to all other sources'
                    other = {'name': 'all other sources', 'parameters': fit['parameters'], 'efficiency': fit['efficiency'],
                             'group': [x for f in fits for x in f['group'] if source(x) != s]}
                if how[0] == 'refit':
                    jobs[how[1]] = (fit if not note else other, s)
                    if note:
                        note += ', refitted without this source'
                elif note:
                    note += ', as recorded (none of its cases from this source)'
                plans.append((fit, s, c, how, note))
    with ThreadPoolExecutor(WORKERS) as pool:
        keys = list(jobs)
        done = pool.map(lambda k: calibrate([c for c in jobs[k][0]['group'] if source(c) != jobs[k][1]],
                                            jobs[k][0]['parameters'], jobs[k][0]['efficiency']), keys)
        refits = dict(zip(keys, done))
        efficiencies = [how[1] if how[0] == 'as recorded' else refits[how[1]] for _, _, _, how, _ in plans]
        if KEEP_UNFITTED:  # a fallback replaces only the fit list: the rest stays the era's own
            efficiencies = [dict(fit['efficiency'], **{p: e[p] for p in fit['parameters']}) if note else e
                            for (fit, _, _, _, note), e in zip(plans, efficiencies)]
        predicted = list(pool.map(lambda pe: residual(pe[0][2], pe[1]), zip(plans, efficiencies)))
        if ATTRIBUTE:
            attribute(pool, plans, efficiencies)
    out = {}
    for (fit, s, c, _, note), r in zip(plans, predicted):
        o = out.setdefault(fit['name'], {'loso_residuals': {}, 'loso_fallback': {}})
        o['loso_residuals'][c['id']] = round(r, 4)
        if note and note not in o['loso_fallback'].get(s, ''):  # one note per fit used (generations differ)
            o['loso_fallback'][s] = '; '.join(filter(None, [o['loso_fallback'].get(s), note]))
    for o in out.values():
        values = [abs(r) for r in o['loso_residuals'].values()]
        o['median_abs_loso_residual'] = round(median(values), 4)
        o['max_abs_loso_residual'] = round(max(values), 4)
    return out


def attribute(pool, plans, efficiencies):
    """Which parameter of a fallback's efficiency makes a left-out source's error: per fit and
    source predicted by a fallback, and per parameter where the fallback and the fit differ, the
    median and largest |residual| of the source's cases with that one parameter set back to the
    fit's own (a diagnosis: it reuses the left-out source's parameter; printed on stderr)."""
    groups = {}
    for (fit, s, c, _, note), e in zip(plans, efficiencies):
        if note:
            groups.setdefault((fit['name'], s), []).append((fit, c, e))
    for (name, s), rows in groups.items():
        def summary(swap):
            def one(row):
                fit, c, e = row
                return residual(c, dict(e, **{swap: fit['efficiency'][swap]}) if swap else e)
            values = [abs(r) for r in pool.map(one, rows)]
            return f'median {median(values):.3f}, max {max(values):.3f}'
        own = rows[0][0]['efficiency']
        keys = sorted({k for _, _, e in rows for k in own if e.get(k) != own[k]})
        print(f'{name}, without {s}: fallback {summary(None)}', file=sys.stderr)
        for k in keys:
            print(f'  {k} set back to the fit\'s {own[k]}: {summary(k)}', file=sys.stderr)


LOSO_KEYS = ['loso_residuals', 'loso_fallback', 'median_abs_loso_residual', 'max_abs_loso_residual']
FIT_KEYS = ['efficiency', 'fitted_on', 'residuals', 'cv_residuals', 'median_abs_cv_residual', 'max_abs_cv_residual']


def record(target, values):
    """Lays `values` over `target` in place, new keys after the cross-validated ones."""
    for key in [k for k in values if k in target]:
        target[key] = values[key]
    new = [k for k in values if k not in target]
    if not new:
        return
    items = list(target.items())
    at = next((i + 1 for i, (k, _) in enumerate(items) if k == 'max_abs_cv_residual'), len(items))
    target.clear()
    target.update(items[:at] + [(k, values[k]) for k in new] + items[at:])


def main():
    load = lambda names: [c for name in names
                          for c in json.loads((ROOT / 'presets' / 'validation' / name).read_text())['cases']]
    named = lambda cs: [c for c in cs if c.get('expressible', True) and 'software_era' in c['request']]
    fitted = named(load(CASE_FILES))
    cases = [c for c in fitted if c.get('fit', True)]
    held = named(load(HELD_OUT_FILES)) + [c for c in fitted if not c.get('fit', True)]
    path = ROOT / 'presets' / 'software_eras.json'
    doc = json.loads(path.read_text())
    devices = {d['key']: d for d in json.loads((ROOT / 'presets' / 'devices.json').read_text())['devices']}
    fits = era_fit_list(doc, cases, held, devices)
    selected = [f for f in fits if f['group'] and (not ONLY or f['era']['key'] == ONLY)]
    results = {f['name']: {'era': f['era']['key'], 'generation': f['generation']} for f in selected}
    if not LOSO_ONLY:
        for f in selected:
            if f['generation']:  # from the era's parameters as just fitted, the generation's laid over
                own = next(o for o in fits if o['era'] is f['era'] and not o['generation'])
                f['efficiency'] = dict(own['efficiency'], **{p: f['efficiency'][p] for p in f['parameters']})
            result = fit_era(f['era'], f['group'], f['parameters'], f['efficiency'])
            f['efficiency'] = result['efficiency']
            if f['generation']:
                result['efficiency'] = {p: result['efficiency'][p] for p in f['parameters']}
            results[f['name']].update(result)
    for name, loso in leave_one_source_out(doc, fits, selected, devices).items():
        results[name].update(loso)
    print(json.dumps(list(results.values()), indent=1))
    if not WRITE:
        return
    if KEEP_UNFITTED or SAME_CUDNN or ATTRIBUTE:
        raise SystemExit('--keep-unfitted, --same-cudnn and --attribute are comparisons: not written')
    for f in selected:
        target = f['era']['by_generation'][f['generation']] if f['generation'] else f['era']
        r = results[f['name']]
        record(target, {k: r[k] for k in ([] if LOSO_ONLY else FIT_KEYS) + LOSO_KEYS})
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
