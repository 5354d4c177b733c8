// The calibration panel's documents (docs/calibration.md): the `calibrate` request built from
// what the user pasted and the page's scenario, and the profile a fit returns, applied to the
// page's own requests. No model here: the core fits, the page sends and shows.

// What the pasted text is: a profile to apply ({"efficiency", "software_era"?}, or a whole
// calibrate response), a JSON measurement document or list, or CSV text. Throws a SyntaxError for
// text that starts as JSON and is not.
export function readCalibrationText(text) {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'empty' };
  if (!/^[[{]/.test(trimmed)) return { kind: 'measurements', measurements: trimmed };  // CSV
  const doc = JSON.parse(trimmed);
  if (doc && !Array.isArray(doc)) {
    if (doc.command === 'calibrate' && doc.profile) return { kind: 'profile', profile: doc.profile };
    if (doc.efficiency && !doc.measurements) return { kind: 'profile', profile: doc };
    if (doc.measurements !== undefined) return { kind: 'measurements', ...doc };
  }
  return { kind: 'measurements', measurements: doc };
}

// The fields of the page's request that say what is measured: net, device, batch, formats and
// kernel model (the software era chosen, whose efficiencies the fit starts from); not the
// cluster, the time to train or the scaling sweep, which a fit does not need and would run on each
// of its hundreds of evaluations. (A PPP pair is left out too: the fit is of a software era's
// efficiencies.)
const CNN_FIELDS = ['net', 'device', 'batch_size', 'profile', 'precision', 'memory_format', 'conv_algorithm', 'optimizer',
  'software_era'];
const TRANSFORMER_DROPPED = ['train_tokens', 'price_per_gpu_hour'];

export function sharedRequest(pageRequest, transformer) {
  const kept = transformer ? Object.keys(pageRequest).filter((key) => !TRANSFORMER_DROPPED.includes(key)) : CNN_FIELDS;
  const request = { command: 'estimate' };
  for (const key of kept) if (pageRequest[key] !== undefined && key !== 'command') request[key] = pageRequest[key];
  // Efficiencies of a profile are not part of the scenario: the fit starts from the era's own.
  delete request.efficiency;
  return request;
}

// The calibrate request: the pasted measurements over the page's scenario (a document's own
// shared request replaces it), split alternately when `holdout`.
export function calibrateRequest(read, pageShared, holdout) {
  const request = { command: 'calibrate', request: read.request ?? pageShared, measurements: read.measurements };
  for (const key of ['parameters', 'loss', 'loss_scale', 'max_evaluations', 'software_era', 'efficiency']) {
    if (read[key] !== undefined) request[key] = read[key];
  }
  if (holdout) request.holdout = 'alternate';
  else if (read.holdout !== undefined) request.holdout = read.holdout;
  return request;
}

// The page state's `calibration` (the profile as JSON text, '' for none) applied to a request of
// `kind` ('cnn' or 'transformer'): its `software_era` and `efficiency` fields (docs/calibration.md,
// "Using the profile"). A profile fitted on the page says which kind it was fitted to
// (`applies_to`) and leaves the other kind's requests alone: an era prices one kind of net.
export function withProfile(request, calibration, kind) {
  if (!calibration) return request;
  let profile = null;
  try {
    profile = JSON.parse(calibration);
  } catch {
    profile = null;
  }
  // Not a profile object: sent as it is, so that the core's error names `efficiency`.
  if (!profile || typeof profile !== 'object' || Array.isArray(profile)) return { ...request, efficiency: calibration };
  if (profile.applies_to && profile.applies_to !== kind) return request;
  const out = { ...request };
  if (profile.software_era !== undefined) out.software_era = profile.software_era;
  if (profile.efficiency !== undefined) out.efficiency = profile.efficiency;
  return out;
}

// The state's text for a profile fitted to requests of `kind`.
export const appliedProfile = (profile, kind) => JSON.stringify(kind ? { applies_to: kind, ...profile } : profile);
