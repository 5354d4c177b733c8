// paleo-estimator/element: importing it defines <paleo-estimate> (docs/embed.md).
import type { EstimateResponse, ErrorResponse, Request } from './index.js';

export interface PaleoEstimateElement extends HTMLElement {
  /** The last response of docs/api.md (also on failure; a transformer's estimate has `kind: "transformer"`). */
  readonly result: EstimateResponse | ErrorResponse | undefined;
  /** The request document of docs/api.md the element sends for its attributes. */
  request(): Promise<Request>;
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
