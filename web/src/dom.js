// Small DOM helpers. All text goes through textContent: names from user specs never become HTML.
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of [].concat(children)) if (child != null) node.append(child);
  return node;
}

// A table of display cells (strings or nodes); `numeric` lists the right-aligned columns.
export function table(headers, rows, { numeric = [], caption = null } = {}) {
  const num = new Set(numeric);
  const head = el('thead', {}, el('tr', {}, headers.map((h, i) =>
    el('th', { scope: 'col', class: num.has(i) ? 'num' : null, text: h }))));
  const body = document.createElement('tbody');
  for (const row of rows) {
    const tr = document.createElement('tr');
    row.forEach((cell, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) td.scope = 'row';
      if (num.has(i)) td.className = 'num';
      if (cell instanceof Node) td.append(cell);
      else td.textContent = String(cell);
      tr.append(td);
    });
    body.append(tr);
  }
  return el('table', { class: 'data' }, [caption ? el('caption', { text: caption }) : null, head, body]);
}

// `table(headers, rows, options)` as the only child of `container`: the table there already is
// updated in place when it has the same headers and as many rows (text cells only), so a
// re-estimate rewrites the numbers that moved instead of building the table anew.
export function fillTable(container, headers, rows, options = {}) {
  const old = container.childElementCount === 1 ? container.firstElementChild : null;
  const body = old?.tBodies?.[0];
  const same = body && !options.caption && !old.caption && body.rows.length === rows.length &&
    rows.every((row) => row.length === headers.length && row.every((cell) => !(cell instanceof Node))) &&
    [...old.tHead.rows[0].cells].every((th, i) => th.textContent === headers[i]) && old.tHead.rows[0].cells.length === headers.length;
  if (!same) {
    container.replaceChildren(table(headers, rows, options));
    return;
  }
  rows.forEach((row, r) => {
    const cells = body.rows[r].cells;
    row.forEach((cell, i) => {
      const text = String(cell);
      if (cells[i].textContent !== text) cells[i].textContent = text;
    });
  });
}

export function csv(headers, rows) {
  const quote = (v) => {
    let s = v == null ? '' : String(v);
    // A text cell that a spreadsheet would read as a formula (a layer named "=1+1") stays text.
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = "'" + s;
    return /[",\n\r]/.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
  };
  return [headers, ...rows].map((r) => r.map(quote).join(',')).join('\n') + '\n';
}

export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
