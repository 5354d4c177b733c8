#!/usr/bin/env python3
"""Writes presets/error_bands.json: the expected error of each family of the validation suite,
which every estimate response carries as "expected_error" (docs/validation.md, docs/api.md).

Per family, over its scored cases (expressible and run) of `paleo validate --format json`: the
median and largest |predicted / measured - 1|. Where every scored case of a family has a
leave-one-out residual in presets/software_eras.json ("cv_residuals" of the era fitted to it) or
was held out of every era's fit (and at least one has such a residual), and the fit is current
(its in-sample "residuals" equal validate's errors within 1e-3), the figures are over the leave-one-out residuals instead, and "cross_validated" is true: the error of
a case predicted by the fit to the others, not by a fit that saw it. tests/test_expected_error.cpp recomputes the
same and fails when the file disagrees (tolerance 1e-3): run this after any change to the model,
the cases or the eras, then rebuild.

Usage: scripts/refresh_error_bands.py [path/to/paleo]   (default build/native/paleo; stdlib only)
"""
import json
import subprocess
import sys
from pathlib import Path

from paleo_cases import era_fits

ROOT = Path(__file__).resolve().parent.parent
PALEO = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / 'build' / 'native' / 'paleo')
OUT = ROOT / 'presets' / 'error_bands.json'
TOLERANCE = 1e-3


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def main():
    suite = json.loads(subprocess.run([PALEO, 'validate', '--format', 'json'], capture_output=True, text=True,
                                      check=True).stdout)
    eras = json.loads((ROOT / 'presets' / 'software_eras.json').read_text())['eras']
    cv, fitted = {}, {}
    # Each era's fit, and its refits on device generations.
    for fit in [fit for era in eras for _, fit in era_fits(era)]:
        cv.update(fit.get('cv_residuals', {}))
        fitted.update(fit.get('residuals', {}))
    families = {}
    for f in suite['families']:
        name = f['family']
        # A true/false statement case has no error (it agrees or not): not scored.
        scored = [c for c in suite['cases'] if c['family'] == name and c['ok'] and c['expressible']
                  and c['error'] is not None]
        if not scored:
            continue
        # Out of sample: a leave-one-out residual, or a case held out of every era's fit (no residual
        # at all: validate's error is already a prediction by a fit that did not see it).
        cross_validated = any(c['id'] in cv for c in scored) and all(c['id'] in cv or c['id'] not in fitted
                                                                     for c in scored)
        stale = [c['id'] for c in scored if c['id'] in fitted and abs(fitted[c['id']] - c['error']) > TOLERANCE]
        if cross_validated and stale:
            print(f"{name}: the era fit is stale (in-sample residual != validate's error for {', '.join(stale)}); "
                  'using validate\'s figures: refit the era, then run this again', file=sys.stderr)
            cross_validated = False
        errors = [abs(cv[c['id']]) if cross_validated and c['id'] in cv else abs(c['error']) for c in scored]
        families[name] = {'median_abs_error': round(median(errors), 4), 'max_abs_error': round(max(errors), 4),
                          'cases': len(scored), 'cross_validated': cross_validated}
    doc = {
        'note': 'The expected error of an estimate, per family of the validation suite (docs/validation.md): the median '
                'and largest |predicted / measured - 1| over the family\'s scored cases (expressible and run), or over '
                'their leave-one-out residuals (presets/software_eras.json) where every scored case has one '
                '("cross_validated"; only while the era\'s fit is current: its in-sample residuals equal validate\'s errors). Every estimate response carries its family\'s as "expected_error". Written by '
                'scripts/refresh_error_bands.py from `paleo validate --format json`; tests/test_expected_error.cpp '
                'fails when it disagrees with what validate computes. Do not edit by hand.',
        'source': 'docs/validation.md',
        'families': families,
    }
    OUT.write_text(json.dumps(doc, indent=1) + '\n')
    for name, f in families.items():
        print(f"{name}: median {f['median_abs_error']:.1%}, max {f['max_abs_error']:.1%} over {f['cases']} cases"
              + (' (cross-validated)' if f['cross_validated'] else ''))


if __name__ == '__main__':
    main()
