// A link's deflated parameters, inflated with a cap on the output: a 544 KB "#z=" link can
// inflate to 400 MiB (a deflate bomb), so the output is counted while it is made and inflating
// stops as soon as it passes the cap, instead of after the whole of it is in memory.
import { Inflate } from 'fflate';
import { joined, slicer, throughStream } from './sliced_stream.js';

// The request limit of the core (docs/api.md, "Limits"): no link holds a longer request.
export const MAX_LINK_BYTES = 8 * 1024 * 1024;

// Input is pushed in pieces of this size: one piece inflates to at most about 1,032 times its
// size (deflate's largest ratio), so the output passes the cap by at most about 1 MiB.
const PIECE_BYTES = 1024;

export class LinkTooLong extends Error {
  constructor(maxBytes) {
    super(`The link's parameters inflate to more than ${maxBytes / (1024 * 1024)} MiB (the request limit); ` +
      'the page ignored them and shows its defaults.');
    this.name = 'LinkTooLong';
  }
}

// fflate's inflater that throws LinkTooLong once its output passes `maxBytes`; `result()` joins
// what it made.
function boundedInflater(maxBytes) {
  const pieces = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > maxBytes) throw new LinkTooLong(maxBytes);
    pieces.push(chunk);
  });
  return { inflater, result: () => joined(pieces, size) };
}

// The inflated bytes of raw deflate data; throws LinkTooLong past `maxBytes`, and fflate's error
// for data that does not inflate.
export function inflateBounded(bytes, maxBytes = MAX_LINK_BYTES) {
  const { inflater, result } = boundedInflater(maxBytes);
  if (bytes.length === 0) inflater.push(bytes, true);
  for (let at = 0; at < bytes.length; at += PIECE_BYTES)
    inflater.push(bytes.subarray(at, at + PIECE_BYTES), at + PIECE_BYTES >= bytes.length);
  return result();
}

// The browser's own inflater (native zlib), fed 16 KiB at a time: one piece inflates to at most
// about 16.5 MiB (deflate's largest ratio) before the count below sees it.
const STREAM_PIECE_BYTES = 16 * 1024;

function inflateStreaming(bytes, maxBytes) {
  return throughStream(new DecompressionStream('deflate-raw'), bytes, STREAM_PIECE_BYTES, (size) => {
    if (size > maxBytes) throw new LinkTooLong(maxBytes);
  });
}

// fflate's inflater where the browser has no DecompressionStream for raw deflate, in the pieces
// inflateBounded uses, yielding between them.
async function inflateInSlices(bytes, maxBytes) {
  const { inflater, result } = boundedInflater(maxBytes);
  if (bytes.length === 0) inflater.push(bytes, true);
  const turn = slicer();
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    inflater.push(bytes.subarray(at, at + PIECE_BYTES), at + PIECE_BYTES >= bytes.length);
    await turn();
  }
  return result();
}

export function streamsRawDeflate() {
  try {
    return typeof DecompressionStream === 'function' && Boolean(new DecompressionStream('deflate-raw'));
  } catch {
    return false;  // an older browser: gzip and deflate only
  }
}

// inflateBounded without a long task: the same bytes, cap and errors (LinkTooLong past
// `maxBytes`; another error for data that does not inflate), inflated in slices with the
// browser's turn in between. `streaming` false takes fflate's path (for the tests).
export function inflateBoundedAsync(bytes, maxBytes = MAX_LINK_BYTES, { streaming = streamsRawDeflate() } = {}) {
  return streaming ? inflateStreaming(bytes, maxBytes) : inflateInSlices(bytes, maxBytes);
}
