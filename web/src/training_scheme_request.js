// The "Training scheme" panel's state (docs/training-schemes.md): its inputs and defaults (part
// of the URL), and the `training_scheme` member they make of an estimate request with a cluster.
export const SCHEME_DEFAULTS = {
  scheme_on: false, ts_consistency: 'sync', ts_staleness: 4, ts_jitter: 'none', ts_slow_pct: 0,
  ts_compression: 'none', ts_averaging: 'none', ts_every: 8,
};

// The member of `training_scheme` each input sets (errors name the member; the page marks the input).
export const INPUT_OF = {
  'training_scheme.consistency': 'ts_consistency', 'training_scheme.staleness': 'ts_staleness',
  'training_scheme.jitter': 'ts_jitter', 'training_scheme.slow_worker': 'ts_slow_pct',
  'training_scheme.compression': 'ts_compression', 'training_scheme.averaging': 'ts_averaging',
  'training_scheme.averaging_every': 'ts_every',
};

// The request's `training_scheme`, or null when the panel is off (or there is no cluster).
export function schemeRequest(state) {
  if (!state.cluster_on || !state.scheme_on) return null;
  const s = { consistency: state.ts_consistency, jitter: state.ts_jitter, compression: state.ts_compression,
    averaging: state.ts_averaging };
  if (state.ts_consistency === 'ssp') s.staleness = state.ts_staleness;
  if (state.ts_averaging === 'local_sgd' || state.ts_averaging === 'elastic') s.averaging_every = state.ts_every;
  if (state.ts_slow_pct) s.slow_worker = state.ts_slow_pct / 100;
  return s;
}
