// A device of the user's own (the Device select's "Custom device…"): its inputs, their defaults
// (an H100 SXM's numbers, so a link naming only `device=custom` still prices something real), the
// device object of docs/api.md they stand for, and the way back from a preset. The core checks
// every member: an empty or absurd value is its error, shown beside the input it names.
export const CUSTOM_DEVICE = 'custom';

export const CUSTOM_DEVICE_DEFAULTS = {
  cd_name: 'My GPU', cd_generation: 'hopper', cd_fp32_tflops: 67, cd_tf32_tflops: 495, cd_fp16_tflops: 989,
  cd_bf16_tflops: 989, cd_fp8_tflops: 1979, cd_bandwidth_gbps: 3350, cd_memory_gib: 80, cd_sms: 132,
  cd_clock_mhz: 1980,
  // The rate a large streaming kernel reached, measured (0: not measured; a preset's copy keeps its
  // measurement): serving streams at it.
  cd_stream_gbps: 0,
  // The cluster preset built of the device it started from: a transformer's nodes are joined by its
  // links unless the page names another ('' for none: the core's PCIe nodes over Ethernet).
  cd_cluster: 'dgx_h100_ndr',
};

// A custom device's number left empty is 0 (none, unknown, or the core's error), never a default.
export const isCustomDeviceKey = (key) => key.startsWith('cd_');

const GIB = 2 ** 30;
// The matrix-unit formats and their inputs (TFLOP/s; 0: the device has none).
const TENSOR_INPUTS = { tf32: 'cd_tf32_tflops', fp16: 'cd_fp16_tflops', bf16: 'cd_bf16_tflops', fp8: 'cd_fp8_tflops' };

// The request's `device`: a preset key, or the custom device's object.
export function deviceOf(state) {
  if (state.device !== CUSTOM_DEVICE) return state.device;
  const device = {
    name: state.cd_name, clock_mhz: state.cd_clock_mhz, peak_gflops: state.cd_fp32_tflops * 1e3,
    mem_bandwidth_gb_per_s: state.cd_bandwidth_gbps, memory_bytes: state.cd_memory_gib * GIB,
    sm_count: state.cd_sms, is_gpu: state.cd_generation !== 'cpu',
  };
  if (state.cd_generation) device.generation = state.cd_generation;
  if (state.cd_stream_gbps) device.stream_bandwidth_gb_per_s = state.cd_stream_gbps;
  const peaks = Object.entries(TENSOR_INPUTS).filter(([, key]) => state[key] !== 0);
  if (peaks.length) device.peak_tensor_gflops = Object.fromEntries(peaks.map(([format, key]) => [format, state[key] * 1e3]));
  return device;
}

// The custom inputs holding a preset's numbers (as `presets` lists it), and its node preset (or the
// first cluster preset built of it): "Custom device…" starts from the device chosen before it.
export function customFromPreset(preset, clusters = []) {
  const tensor = preset.peak_tensor_gflops ?? {};
  return {
    cd_cluster: preset.node ?? clusters.find((c) => c.device === preset.key)?.key ?? '',
    cd_name: `${preset.name} (edited)`, cd_generation: preset.generation ?? '',
    cd_fp32_tflops: preset.peak_gflops / 1e3, cd_bandwidth_gbps: preset.mem_bandwidth_gb_per_s,
    cd_stream_gbps: preset.stream_bandwidth_gb_per_s ?? 0,
    cd_memory_gib: (preset.memory_bytes ?? 0) / GIB, cd_sms: preset.sm_count ?? 0, cd_clock_mhz: preset.clock_mhz,
    ...Object.fromEntries(Object.entries(TENSOR_INPUTS).map(([format, key]) => [key, (tensor[format] ?? 0) / 1e3])),
  };
}

// The input of the device member a core error's message names ("'peak_gflops' must be ..."), for
// the custom device; null for another message.
const MEMBER_INPUTS = { name: 'cd_name', generation: 'cd_generation', peak_gflops: 'cd_fp32_tflops',
  mem_bandwidth_gb_per_s: 'cd_bandwidth_gbps', stream_bandwidth_gb_per_s: 'cd_stream_gbps', memory_bytes: 'cd_memory_gib',
  sm_count: 'cd_sms', clock_mhz: 'cd_clock_mhz', ...TENSOR_INPUTS };
export const isDeviceField = (field) => field === 'device' || field.startsWith('device.');
export function customDeviceInput(message) {
  const member = /'(\w+)'/.exec(message.replace(/^field '[^']*': /, ''))?.[1];
  return MEMBER_INPUTS[member] ?? null;
}
