#!/usr/bin/env python3
"""Writes presets/error_bands.json: the expected error of each family of the validation suite,
which every estimate response carries as "expected_error" (docs/validation.md, docs/api.md).

Per family, over its scored cases (expressible and run) of `paleo validate --format json`: the
median and largest |predicted / measured - 1|, each case predicted without its own source where
every fitted case of the family has a leave-one-source-out residual in presets/software_eras.json
("loso_residuals"), else without itself ("cv_residuals"), else as validate prices it; a case held
out of every era's fit is out of sample as validate prices it. Residuals count only while the fit
is current (its in-sample "residuals" equal validate's errors within 1e-3). "cross_validation"
names the kind. tests/test_expected_error.cpp recomputes the
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


def family_band(scored, fitted, cv, loso):
    """(errors, kind) of a family's scored cases: each case predicted without its own source
    where every fitted case has a leave-one-source-out residual, else without itself where every
    one has a leave-one-case-out residual, else validate's errors. A case in no fit is out of
    sample as validate prices it. Residuals count only while the fit is current."""
    in_fit = [c for c in scored if c['id'] in fitted]
    stale = [c['id'] for c in in_fit if abs(fitted[c['id']] - c['error']) > TOLERANCE]
    if not in_fit:
        return [abs(c['error']) for c in scored], 'out_of_sample', stale
    for kind, table in (('leave_one_source_out', loso), ('leave_one_case_out', cv)):
        if not stale and all(c['id'] in table for c in in_fit):
            return [abs(table[c['id']]) if c['id'] in table else abs(c['error']) for c in scored], kind, stale
    return [abs(c['error']) for c in scored], 'in_sample', stale


def main():
    suite = json.loads(subprocess.run([PALEO, 'validate', '--format', 'json'], capture_output=True, text=True,
                                      check=True).stdout)
    eras = json.loads((ROOT / 'presets' / 'software_eras.json').read_text())['eras']
    cv, fitted, loso = {}, {}, {}
    # Each era's fit, and its refits on device generations.
    # And the constants of the core fitted to validation cases ("fits" beside a file's "cases").
    constant_fits = [fit for path in sorted((ROOT / 'presets' / 'validation').glob('*.json'))
                     for fit in json.loads(path.read_text()).get('fits', [])]
    for fit in [fit for era in eras for _, fit in era_fits(era)] + constant_fits:
        cv.update(fit.get('cv_residuals', {}))
        fitted.update(fit.get('residuals', {}))
        loso.update(fit.get('loso_residuals', {}))
    families = {}
    for f in suite['families']:
        name = f['family']
        # A true/false statement case has no error (it agrees or not): not scored.
        scored = [c for c in suite['cases'] if c['family'] == name and c['ok'] and c['expressible']
                  and c['error'] is not None]
        if not scored:
            continue
        errors, kind, stale = family_band(scored, fitted, cv, loso)
        if stale:
            print(f"{name}: the era fit is stale (in-sample residual != validate's error for {', '.join(stale)}); "
                  'using validate\'s figures: refit the era, then run this again', file=sys.stderr)
        families[name] = {'median_abs_error': round(median(errors), 4), 'max_abs_error': round(max(errors), 4),
                          'cases': len(scored), 'cross_validation': kind,
                          'cross_validated': kind in ('leave_one_source_out', 'leave_one_case_out')}
    doc = {
        'note': 'The expected error of an estimate, per family of the validation suite (docs/validation.md): the median '
                'and largest |predicted / measured - 1| over the family\'s scored cases (expressible and run), each case '
                'predicted without its own source where every fitted case of the family has a leave-one-source-out '
                'residual (presets/software_eras.json, "loso_residuals"), else without itself ("cv_residuals"), else '
                'as validate prices it; "cross_validation" says which ("out_of_sample": nothing is fitted to the '
                'family). Residuals count only while the era\'s fit is current (its in-sample residuals equal '
                'validate\'s errors). Every estimate response carries its family\'s as "expected_error". Written by '
                'scripts/refresh_error_bands.py from `paleo validate --format json`; tests/test_expected_error.cpp '
                'fails when it disagrees with what validate computes. Do not edit by hand.',
        'families': families,
    }
    OUT.write_text(json.dumps(doc, indent=1) + '\n')
    for name, f in families.items():
        print(f"{name}: median {f['median_abs_error']:.1%}, max {f['max_abs_error']:.1%} over {f['cases']} cases "
              f"({f['cross_validation']})")


if __name__ == '__main__':
    main()
