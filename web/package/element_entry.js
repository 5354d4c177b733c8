// paleo-estimator/element: defines the <paleo-estimate> custom element (docs/embed.md), on the
// same WebAssembly core as the package's main entry. Import it once for its side effect.
import createPaleo from './core.js';
