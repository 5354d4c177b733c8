#!/usr/bin/env python3
"""Rewrites tests/data/validation_baseline.json from `paleo validate --format json`: per family and
overall, the median |error| rounded up at the third significant digit and the number of scored
cases. Run after a change that moves the suite on purpose (and after refitting the eras and
`scripts/refresh_error_bands.py`); tests/test_validation_suite.cpp fails when a median grows past
the recorded one or fewer cases are scored.

Usage: scripts/refresh_validation_baseline.py [path/to/paleo]   (default build/native/paleo)
"""
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PALEO = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / 'build' / 'native' / 'paleo')
BASELINE = ROOT / 'tests' / 'data' / 'validation_baseline.json'


def round_up_3(x):
    if x <= 0:
        return 0.0
    digits = 3 - int(math.floor(math.log10(x))) - 1
    scale = 10 ** digits
    return math.ceil(x * scale - 1e-9) / scale


def main():
    report = json.loads(subprocess.run([PALEO, 'validate', '--format', 'json'], check=True,
                                       capture_output=True, text=True).stdout)
    doc = json.loads(BASELINE.read_text())
    rows = [(f['family'], f) for f in report['families']] + [('overall', report['overall'])]
    for family, s in rows:
        entry = doc['overall'] if family == 'overall' else doc['families'].setdefault(family, {})
        entry['median_abs_error'] = round_up_3(s['median_abs_error'])
        entry['scored'] = s['scored']
        print(f"{family}: {entry['median_abs_error']} over {entry['scored']}")
    BASELINE.write_text(json.dumps(doc, indent=2) + '\n')


if __name__ == '__main__':
    main()
