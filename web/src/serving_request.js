// The serving part of the page state (the transformer view's "Serve" task): its inputs, their
// defaults, and the `inference` requests they stand for (docs/serving.md). The core does all the
// modelling; the concurrency sweep is a list of the same request at other loads.
import { transformerNet } from './transformer_request.js';
import { deviceOf } from './custom_device.js';

export const SERVING_DEFAULTS = {
  t_task: 'train',            // 'train' or 'serve'
  prompt_len: 2048, generate_len: 256,
  s_load: 'concurrency',      // what sets the load: 'concurrency' or 'request_rate'
  s_concurrency: 32, s_request_rate: 4,
  kv_cache_dtype: '',         // '': the activations' format
  draft_tokens: 0, acceptance_rate: 0.7,
  // Today's engines (the core's defaults): decode steps replay CUDA graphs, and new prompts ride in
  // the decode step's pass. Off: an eager engine of 2023.
  s_cuda_graphs: true, s_mixed_steps: true,
};

// The request field an error names -> the id of the input that sets it.
export const SERVING_FIELD_INPUTS = { concurrency: 's_concurrency', request_rate: 's_request_rate',
  'speculative.draft_tokens': 'draft_tokens', 'speculative.acceptance_rate': 'acceptance_rate', speculative: 'draft_tokens' };

export function inferenceRequest(state) {
  const request = { command: 'inference', net: transformerNet(state), device: deviceOf(state),
    nodes: state.t_nodes, devices_per_node: state.t_per_node, precision: state.precision, tp: state.tp,
    prompt_len: state.prompt_len, generate_len: state.generate_len };
  if (state.pp > 1) request.pp = state.pp;
  if (state.t_software_era) request.software_era = state.t_software_era;
  if (state.t_cluster) request.cluster = state.t_cluster;
  if (state.s_load === 'request_rate') request.request_rate = state.s_request_rate;
  else request.concurrency = state.s_concurrency;
  if (state.kv_cache_dtype) request.kv_cache_dtype = state.kv_cache_dtype;
  if (!state.s_cuda_graphs) request.cuda_graphs = false;
  if (!state.s_mixed_steps) request.mixed_steps = false;
  if (state.draft_tokens > 0) {
    request.speculative = { draft_tokens: state.draft_tokens, acceptance_rate: state.acceptance_rate };
  }
  return request;
}

// The same request at 1, 2, 4, ... requests in flight, up to what the KV cache holds (at most
// `points` of them): the chart of time per token and throughput against the load, which reads
// the answers' `serving` alone (the request's "sections": no operators, memory or breakdown).
export function sweepRequests(request, maxConcurrency, points = 12) {
  const out = [];
  for (let c = 1; c <= Math.max(1, maxConcurrency) && out.length < points; c *= 2) {
    const { request_rate: _, ...rest } = request;
    out.push({ ...rest, concurrency: c, sections: ['serving'] });
  }
  return out;
}
