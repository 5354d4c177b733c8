// The core client boot.js started (web/src/boot.js, a classic script that runs before the page's
// modules), the link it read meanwhile ({state, params, problems}: state.js readLink), the first
// answers it asked for (the link's estimate, or null; the presets; the schema), and how to tell a
// request cancelled by a newer one (core_client.js).
export const { core, firstEstimate, firstPresets, firstSchema, linked } = window.paleoBoot;
export const isCancelled = (e) => e instanceof Error && e.name === 'Cancelled';
