// A long table shows its first ROWS_SHOWN rows until the reader asks for all. Laying out every row
// of a long table (Inception-v3's 126 layers, in the layer and the search tables) held the main
// thread past 50 ms on a slow machine, and the first rows, sorted, are the ones a reader looks at;
// the CSV holds them all. The rows past the limit stay in the table, hidden, so an update leaves
// them be, and the reader's choice holds until the page is reloaded.
import { el } from './dom.js';

export const ROWS_SHOWN = 30;

// wrap: the .table-wrap around the table (with an id); noun: what a row is ("layers").
export function limitRows(wrap, noun) {
  const rows = wrap.querySelector('tbody')?.rows ?? [];
  let button = wrap.nextElementSibling?.classList.contains('show-all') ? wrap.nextElementSibling : null;
  if (!button) {
    button = el('button', { type: 'button', class: 'show-all', 'aria-controls': wrap.id });
    button.addEventListener('click', () => {
      wrap.dataset.expanded = String(wrap.dataset.expanded !== 'true');
      limitRows(wrap, button.dataset.noun);
    });
    wrap.after(button);
  }
  const expanded = wrap.dataset.expanded === 'true';
  for (let i = ROWS_SHOWN; i < rows.length; ++i) {
    if (rows[i].hidden === expanded) rows[i].hidden = !expanded;
  }
  button.hidden = rows.length <= ROWS_SHOWN;
  button.dataset.noun = noun;
  button.setAttribute('aria-expanded', String(expanded));
  button.textContent = expanded ? `Show the first ${ROWS_SHOWN} ${noun}` : `Show all ${rows.length} ${noun}`;
}
