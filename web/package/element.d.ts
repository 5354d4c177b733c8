// paleo-estimator/element: importing it defines <paleo-estimate> (docs/embed.md).
import type { EstimateResponse, ErrorResponse } from './index.js';

export interface PaleoEstimateElement extends HTMLElement {
  /** The last response of docs/api.md (also on failure). */
  readonly result: EstimateResponse | ErrorResponse | undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'paleo-estimate': PaleoEstimateElement;
  }
  interface HTMLElementEventMap {
    'paleo-result': CustomEvent<EstimateResponse>;
    'paleo-error': CustomEvent<string>;
  }
}
