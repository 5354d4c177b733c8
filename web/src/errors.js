// Core errors on the page: in a box (with the layer and field the core names), or right next to
// the input named in error.field. Text only: names come from the user.
import { el } from './dom.js';

// The message without the "layer 'x': " and "field 'y': " the core starts it with.
export function detail(error) {
  let text = error.message;
  for (const prefix of [`layer '${error.layer}': `, `field '${error.field}': `]) {
    if (text.startsWith(prefix)) text = text.slice(prefix.length);
  }
  return text;
}

export function showError(node, error, lead = '') {
  node.hidden = !error;
  if (!error) {
    node.replaceChildren();
    return;
  }
  const where = [error.layer && `Layer “${error.layer}”`, error.field && `field “${error.field}”`].filter(Boolean).join(', ');
  node.replaceChildren(lead, ...(where ? [el('strong', { text: where }), ': '] : []), detail(error));
}

const FIELD_ERROR = 'field-error';
let marked = null;  // the input the error is shown at

export function clearFieldError() {
  document.getElementById(FIELD_ERROR)?.remove();
  if (!marked) return;
  if (marked.getAttribute('aria-describedby') === FIELD_ERROR) marked.removeAttribute('aria-describedby');
  marked.removeAttribute('aria-invalid');
  marked = null;
}

// Shows the error under `input` (a visible form control); false when there is none to show it at.
export function showFieldError(input, error) {
  clearFieldError();
  if (!input || !input.getClientRects().length) return false;
  const node = el('p', { id: FIELD_ERROR, class: 'error field-error', role: 'alert', text: detail(error) });
  (input.closest('label') && input.type === 'checkbox' ? input.closest('label') : input).after(node);
  input.setAttribute('aria-invalid', 'true');
  marked = input;
  if (!input.hasAttribute('aria-describedby')) input.setAttribute('aria-describedby', FIELD_ERROR);
  return true;
}
