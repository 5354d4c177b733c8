// The markup of a <paleo-estimate> element and its script, to paste into another page. Every
// attribute value is escaped (& " ' < >): a value from the URL hash such as `net=x"><script>...`
// stays the text of one attribute wherever the snippet is pasted, in an attribute or not.
const ESCAPES = { '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' };
export const escapeAttribute = (value) => String(value).replace(/[&"'<>]/g, (c) => ESCAPES[c]);

// Attribute names are the element's own (docs/embed.md); only values come from the page's state.
const NAME = /^[a-z][a-z-]*$/;

export function embedSnippet(scriptUrl, attributes) {
  const attrs = attributes.map(([name, value]) => {
    if (!NAME.test(name)) throw new Error(`not an attribute name: ${name}`);
    return ` ${name}="${escapeAttribute(value)}"`;
  }).join('');
  return `<script src="${escapeAttribute(scriptUrl)}"></script>\n<paleo-estimate${attrs}></paleo-estimate>`;
}
