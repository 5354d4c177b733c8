// The "Embed snippet" button's markup. A chunk of its own (web/src/main.js fetches it once the first
// view is built): the element's attribute tables are no part of what loads before the first result.
import { attributesOf } from './embed_attributes.js';
import { embedSnippet } from './embed_snippet.js';
import { servingAttributesOf } from './embed_serving.js';
import { transformerAttributesOf } from './embed_transformer.js';
import { importedForm } from './net_text.js';
import { inferenceRequest } from './serving_request.js';
import { requests } from './state.js';
import { compress } from './link_compress.js';
import { transformerRequest } from './transformer_request.js';

// The <paleo-estimate> markup for the current configuration: the attributes of the `estimate`
// request the page sends (embed_attributes.js, the table the element reads them back with), and a
// pasted spec compressed (built with DOM APIs: embed_snippet.js). A transformer's: the attributes of
// the training request the transformer view sends (embed_transformer.js), or of its serving request
// (embed_serving.js); null, with a status message, while its pasted config is not JSON.
// transformer: whether the state shows a transformer; specJson(text): the spec box's net as JSON
// text; status(text): the page's status line.
export function embedSnippetFor(state, { transformer, specJson, status }) {
  const script = new URL('paleo-embed.js', location.href).href;
  if (transformer) {
    try {
      return embedSnippet(script, state.t_task === 'serve' ? servingAttributesOf(inferenceRequest(state))
        : transformerAttributesOf(transformerRequest(state)));
    } catch (e) {
      status('No embed snippet: ' + (e instanceof SyntaxError ? 'the config is not JSON' : e.message));
      return null;
    }
  }
  let estimate;
  try {
    estimate = requests(state).estimate;
  } catch {
    estimate = requests({ ...state, spec: '' }).estimate;  // a spec that is not JSON yet: as pasted, below
  }
  // The embed's estimate-only module has no importers (docs/embed.md): an imported net's element
  // would show an error, so the page says so instead of copying it.
  const imported = state.spec.trim() ? importedForm(state.spec) : null;
  if (imported) {
    status(`No embed snippet: the embed reads Paleo specs, and an imported ${imported} is converted by the page only`);
    return null;
  }
  const attrs = attributesOf(estimate);
  if (state.spec.trim()) attrs.push(['spec-z', compress(specJson(state.spec))]);
  return embedSnippet(script, attrs);
}
