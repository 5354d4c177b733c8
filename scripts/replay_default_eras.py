#!/usr/bin/env python3
"""The transformer cases of the validation suite as a user who names no stack would price them:
each case whose request names a `software_era` priced again without it (the era its device's
generation and ZeRO stage choose, docs/transformer.md, "The stack of a request that names none"),
against the same measurement. Prints, per named era, the cases, how many change era, and the median
|error| with the era named and with it dropped; then all of them. A diagnosis of the defaults
(docs/validation.md, "A ZeRO-3 request's default stack"), not a fit: nothing is written.

Usage: scripts/replay_default_eras.py [path/to/paleo]  (default build/native/paleo)
"""
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from paleo_cases import compared

ROOT = Path(__file__).resolve().parent.parent
PALEO = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / 'build' / 'native' / 'paleo')


def answer(request):
    out = subprocess.run([PALEO, 'api'], input=json.dumps(request), capture_output=True, text=True, check=False)
    return json.loads(out.stdout)


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else float('nan')


def replay(case):
    """(named era, era taken without it, error named, error without), or None when not priced."""
    named = answer(case['request'])
    request = {k: v for k, v in case['request'].items() if k != 'software_era'}
    silent = answer(request)
    if not named.get('ok') or not silent.get('ok'):
        return None
    error = lambda r: compared(r, case['compare']) / case['measured'] - 1
    return case['request']['software_era'], silent['software_era']['key'], error(named), error(silent)


def main():
    cases = [c for path in sorted((ROOT / 'presets' / 'validation').glob('transformer*_cases.json'))
             for c in json.loads(path.read_text())['cases']
             if c.get('expressible', True) and 'software_era' in c['request'] and c.get('family') == 'transformers']
    with ThreadPoolExecutor(2) as pool:
        rows = [r for r in pool.map(replay, cases) if r]
    by_era = defaultdict(list)
    for row in rows:
        by_era[row[0]].append(row)
    print('era named\tcases\ttaken without it\tmedian |error| named\tmedian |error| without')
    for era, group in sorted(by_era.items()):
        taken = ', '.join(sorted({r[1] for r in group}))
        print(f'{era}\t{len(group)}\t{taken}\t{100 * median([abs(r[2]) for r in group]):.1f} %'
              f'\t{100 * median([abs(r[3]) for r in group]):.1f} %')
    print(f'all\t{len(rows)}\t\t{100 * median([abs(r[2]) for r in rows]):.1f} %'
          f'\t{100 * median([abs(r[3]) for r in rows]):.1f} %')


if __name__ == '__main__':
    main()
