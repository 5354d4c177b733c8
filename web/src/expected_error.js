// The band an estimate carries beside its headline: its family's expected error, from the
// response (docs/validation.md), with a link that opens "How accurate is it?" (accuracy.js, whose
// code loads when the section first opens).
import { el } from './dom.js';
import { expectedErrorText } from './format.js';

export function expectedError(node, response) {
  const e = response && response.expected_error;
  node.hidden = !e;
  if (!e) {
    node.replaceChildren();
    return;
  }
  node.dataset.family = e.family;
  node.replaceChildren(expectedErrorText(e) + ' ', el('a', { href: '#accuracy', class: 'open-accuracy', text: 'How accurate is it?' }));
}

// The links beside estimates open the section `details` (the link's own #accuracy would only scroll).
export function wireAccuracyLinks(details) {
  document.addEventListener('click', (event) => {
    const link = event.target.closest && event.target.closest('a.open-accuracy');
    if (!link) return;
    event.preventDefault();
    details.open = true;
    details.scrollIntoView({ block: 'start' });
  });
}
