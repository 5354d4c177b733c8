// The page's link written: its parameters (state.js toParams) deflated, raw deflate at level 9
// (fflate), in base64url after "#z=". A chunk of its own, loaded when the page first writes a link
// (main.js) or an embed snippet its spec: fflate's deflater is not among what loads before the
// first result (state.js, which boot.js carries, only reads links).
import { deflateSync, strToU8 } from 'fflate';
import { streamsRawDeflate } from './link_inflate.js';
import { deflateStreaming } from './link_deflate.js';
import { toBase64url, toParams } from './state.js';

// Text deflated (raw deflate, level 9) in base64url (state.js decompress reads it back).
export const compress = (text) => toBase64url(deflateSync(strToU8(text), { level: 9 }));

export function toHash(state) {
  const text = toParams(state);
  return text ? '#z=' + compress(text) : '#';
}

// Parameters this long deflate at once (a few ms); longer ones in slices.
const AT_ONCE_CHARS = 64 * 1024;

// toHash without a long task: a promise of a hash that reads back as the same state (deflated
// by the browser's CompressionStream in slices when the parameters are long).
export async function toHashAsync(state) {
  const text = toParams(state);
  if (text.length <= AT_ONCE_CHARS || typeof CompressionStream !== 'function' || !streamsRawDeflate()) {
    return text ? '#z=' + compress(text) : '#';
  }
  return '#z=' + toBase64url(await deflateStreaming(strToU8(text)));
}
