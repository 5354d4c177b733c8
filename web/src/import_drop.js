// Bringing a model file to the page: drop it anywhere on the page or pick it with the spec box's
// file button. A .prototxt or a Keras / Paleo .json goes into the spec box as its text; an .onnx
// file is decoded here (tools/onnx_graph_decoder.mjs, built into onnx-decoder.js and loaded only
// when needed) into {"onnx_graph": ...}, the graph without its weights. The core converts and
// prices every form (docs/import.md); its warnings show with the results. A net whose link would
// be too long to share gets a note and the offer of the net as a JSON file.
import { download } from './dom.js';

// Longer links than this are cut by chat programs, mail clients and some servers.
export const MAX_SHAREABLE_LINK = 32000;

async function onnxGraphOf(file) {
  // A URL built at run time: the decoder is its own file (web/build.mjs), loaded on first use.
  const { onnxGraphOfFile } = await import(new URL('onnx-decoder.js', document.baseURI).href);
  // Read in pieces: the weights are skipped over, never loaded (tools/onnx_weightless_bytes.mjs).
  const read = async (offset, length) => new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
  return onnxGraphOfFile(read, file.size, file.name.replace(/\.onnx$/i, ''));
}

// The spec box's text for a file.
export async function specTextOf(file) {
  if (/\.onnx$/i.test(file.name)) return JSON.stringify(await onnxGraphOf(file));
  return file.text();
}

// Wires the drop target and the file button; `use(text)` puts a text into the spec box and
// re-estimates; `fail(message)` shows why a file could not be read.
export function wireImport({ target, fileInput, use, fail }) {
  const take = async (file) => {
    if (!file) return;
    try {
      use(await specTextOf(file));
    } catch (e) {
      fail(`${file.name}: not a readable model file (${e && e.message ? e.message : e})`);
    }
  };
  fileInput.addEventListener('change', async (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    await take(file);
  });
  target.addEventListener('dragover', (e) => {
    if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
    e.preventDefault();
    target.classList.add('dropping');
  });
  target.addEventListener('dragleave', (e) => {
    if (e.target === target || !target.contains(e.relatedTarget)) target.classList.remove('dropping');
  });
  target.addEventListener('drop', async (e) => {
    if (!e.dataTransfer?.files?.length) return;
    e.preventDefault();
    target.classList.remove('dropping');
    await take(e.dataTransfer.files[0]);
  });
}

// The note under the spec box when the link is too long to share, with the net as a file;
// specText() gives the file's text when asked (a long net's is megabytes).
export function showLinkNote(note, button, linkLength, specText) {
  const tooLong = linkLength > MAX_SHAREABLE_LINK;
  note.hidden = !tooLong;
  if (!tooLong) return;
  note.querySelector('.size').textContent = `${Math.round(linkLength / 1000)} kB`;
  button.onclick = () => download('paleo-net.json', 'application/json', specText());
}
