// Small DOM helpers. All text goes through textContent: names from user specs never become HTML.
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'style') node.setAttribute('style', value);
    else node.setAttribute(key, value);
  }
  for (const child of [].concat(children)) if (child != null) node.append(child);
  return node;
}

export function table(headers, rows, { numeric = [] } = {}) {
  const head = el('thead', {}, el('tr', {}, headers.map((h, i) =>
    el('th', { scope: 'col', class: numeric.includes(i) ? 'num' : '', text: h }))));
  const body = el('tbody', {}, rows.map((row) => el('tr', {}, row.map((cell, i) =>
    cell instanceof Node ? el('td', { class: numeric.includes(i) ? 'num' : '' }, cell)
                         : el('td', { class: numeric.includes(i) ? 'num' : '', text: String(cell) })))));
  return el('table', { class: 'data' }, [head, body]);
}

export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
