// The core client boot.js started (web/src/boot.js, a classic script that runs before the page's
// modules), and how to tell a request cancelled by a newer one (core_client.js).
export const { core, firstPresets } = window.paleoBoot;
export const isCancelled = (e) => e instanceof Error && e.name === 'Cancelled';
