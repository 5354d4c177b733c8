// The layout a transformer starts with, so that picking one shows a sensible estimate at once:
// the model's sequence length, 64 sequences per step, selective recomputation, ZeRO-1, flash
// attention, and the smallest tensor parallelism that fits, which the core chooses
// ("tp": "smallest_that_fits": a power of two that divides the heads and fits in a node,
// sequence parallel with it). call(request) returns a promise of the response.
import { NEWCOMER_HARDWARE, TRANSFORMER_DEFAULTS, transformerNet, transformerRequest } from './transformer_request.js';
import { CUSTOM_DEVICE } from './custom_device.js';

const LAYOUT = ['pp', 'cp', 'ep', 'expert_tp', 'virtual_stages', 'schedule', 'global_batch', 'micro_batch', 'recompute', 'zero', 'attention'];

// `hardware`: also take the newcomer's hardware (coming from a CNN). `prices`: the price presets.
export async function startingLayout(call, state, { hardware = false, prices = [] } = {}) {
  const next = { ...state };
  if (hardware) {
    Object.assign(next, NEWCOMER_HARDWARE);
    if (state.device === CUSTOM_DEVICE) next.device = CUSTOM_DEVICE;  // a device of one's own stays
    const price = prices.find((p) => p.key === next.price_preset);
    if (price) next.price = price.usd_per_device_hour;
    else next.price_preset = '';
  }
  for (const key of LAYOUT) next[key] = TRANSFORMER_DEFAULTS[key];
  let net;
  try {
    net = transformerNet(next);
  } catch {
    return next;  // the pasted config is not JSON yet: the page shows that error
  }
  const summary = await call({ command: 'summary', net });
  if (!summary.ok) return next;
  const config = summary.model.config;
  next.seq_len = config.seq_len;
  const { sequence_parallel: _, ...request } = transformerRequest(next);
  const estimate = await call({ ...request, tp: 'smallest_that_fits' });
  if (!estimate.ok) return { ...next, tp: 1, sequence_parallel: false };
  const tp = estimate.parallel.tp;
  return { ...next, tp, sequence_parallel: tp > 1 && estimate.parallel.sequence_parallel };
}
