// Number formatting for tables and cards. Milliseconds keep four or five significant digits
// (the CLI's tables show the same), counts use SI prefixes, sizes binary prefixes.
export function ms(v) {
  if (!Number.isFinite(v)) return '–';
  if (v === 0) return '0';
  if (Math.abs(v) >= 100) return v.toFixed(1);
  if (Math.abs(v) >= 1) return v.toFixed(3);
  return v.toPrecision(3);
}

export function count(v) {
  if (!Number.isFinite(v)) return '–';
  const units = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [scale, suffix] of units) if (Math.abs(v) >= scale) return (v / scale).toFixed(2) + ' ' + suffix;
  return String(Math.round(v));
}

// One formatter each, made once: toLocaleString builds a new one per call (a re-estimate formats
// hundreds of numbers). Same text as toLocaleString('en-US', ...).
const INTEGER = new Intl.NumberFormat('en-US');
const CENTS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });

export function integer(v) {
  return Number.isFinite(v) ? INTEGER.format(Math.round(v)) : '–';
}

export function bytes(v) {
  if (!Number.isFinite(v)) return '–';
  const units = [[2 ** 40, 'TiB'], [2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']];
  for (const [scale, suffix] of units) if (Math.abs(v) >= scale) return (v / scale).toFixed(2) + ' ' + suffix;
  return v + ' B';
}

export function duration(msValue) {
  if (!Number.isFinite(msValue)) return '–';
  const s = msValue / 1e3;
  if (s < 120) return s.toFixed(1) + ' s';
  if (s < 7200) return (s / 60).toFixed(1) + ' min';
  if (s < 172800) return (s / 3600).toFixed(1) + ' h';
  return (s / 86400).toFixed(1) + ' days';
}

export function money(v) {
  if (!Number.isFinite(v)) return '–';
  return '$' + CENTS.format(v);
}

export function ratio(v) {
  return Number.isFinite(v) ? v.toFixed(2) + '×' : '–';
}

export function shape(s) {
  return Array.isArray(s) ? s.join('×') : '';
}

// Relative errors (fractions) as percentages: signed for one case, plain for a |error| statistic.
export function signedPercent(v) {
  if (!Number.isFinite(v)) return '–';
  return (v >= 0 ? '+' : '−') + Math.abs(v * 100).toFixed(1) + ' %';
}

export function absPercent(v) {
  return Number.isFinite(v) ? (v * 100).toFixed(1) + ' %' : '–';
}

// Four significant digits (a measured figure and its prediction, in the unit of the field compared).
export function sig(v) {
  if (!Number.isFinite(v)) return '–';
  return Math.abs(v) >= 1e4 ? INTEGER.format(Math.round(v)) : String(+v.toPrecision(4));
}

// The band every estimate carries (its "expected_error", docs/validation.md), in words.
// The core's sentence for an estimate's expected error (core/validation/expected_error.cpp).
export function expectedErrorText(e) {
  return `Estimate; ${e.summary}.`;
}

// The unit of a validation case's figure, from the response field it compares (docs/validation.md).
export function compareUnit(compare) {
  const last = [].concat(compare).at(-1);
  return last.endsWith('_ms') ? 'ms' : last.includes('tflops') ? 'TFLOP/s' : last.endsWith('_bytes') ? 'bytes' : '';
}

// A compared figure on the accuracy scatter's axes: bytes as GB, so that they sit beside the ms.
export function scatterValue(value, compare) {
  return compareUnit(compare) === 'bytes' ? value / 1e9 : value;
}

// A case's source as the suite records it: a URL, sometimes followed by a note in words.
export function splitSource(text) {
  const [url = '', ...rest] = String(text ?? '').trim().split(/\s+/);
  return { url, note: rest.join(' ') };
}
