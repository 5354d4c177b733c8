// A link's deflated parameters, inflated with a cap on the output: a 544 KB "#z=" link can
// inflate to 400 MiB (a deflate bomb), so the output is counted while it is made and inflating
// stops as soon as it passes the cap, instead of after the whole of it is in memory.
import { Inflate } from 'fflate';

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

// The inflated bytes of raw deflate data; throws LinkTooLong past `maxBytes`, and fflate's error
// for data that does not inflate.
export function inflateBounded(bytes, maxBytes = MAX_LINK_BYTES) {
  const pieces = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > maxBytes) throw new LinkTooLong(maxBytes);
    pieces.push(chunk);
  });
  if (bytes.length === 0) inflater.push(bytes, true);
  for (let at = 0; at < bytes.length; at += PIECE_BYTES)
    inflater.push(bytes.subarray(at, at + PIECE_BYTES), at + PIECE_BYTES >= bytes.length);
  return joined(pieces, size);
}

// Work on the page's main thread gives the browser its turn this often, so that no task runs
// long (a 1 MB link inflates to megabytes).
export const SLICE_MS = 8;

// Yields to the browser's event loop: a message to self, which, unlike a timer, a background tab
// does not throttle to one a second.
export function yieldToBrowser() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export function joined(pieces, size) {
  const out = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

// The browser's own inflater (native zlib), fed 16 KiB at a time: one piece inflates to at most
// about 16.5 MiB (deflate's largest ratio) before the count below sees it.
const STREAM_PIECE_BYTES = 16 * 1024;

async function inflateStreaming(bytes, maxBytes) {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const writing = (async () => {
    for (let at = 0; at < bytes.length; at += STREAM_PIECE_BYTES) {
      await writer.ready;
      await writer.write(bytes.subarray(at, at + STREAM_PIECE_BYTES));
    }
    await writer.close();
  })();
  writing.catch(() => {});  // data that does not inflate: the reader reports it
  const pieces = [];
  let size = 0;
  let since = performance.now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) throw new LinkTooLong(maxBytes);
      pieces.push(value);
      if (performance.now() - since > SLICE_MS) {
        await yieldToBrowser();
        since = performance.now();
      }
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
    throw e;
  }
  return joined(pieces, size);
}

// fflate's inflater where the browser has no DecompressionStream for raw deflate, in the pieces
// inflateBounded uses, yielding between them.
async function inflateInSlices(bytes, maxBytes) {
  const pieces = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > maxBytes) throw new LinkTooLong(maxBytes);
    pieces.push(chunk);
  });
  if (bytes.length === 0) inflater.push(bytes, true);
  let since = performance.now();
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    inflater.push(bytes.subarray(at, at + PIECE_BYTES), at + PIECE_BYTES >= bytes.length);
    if (performance.now() - since > SLICE_MS) {
      await yieldToBrowser();
      since = performance.now();
    }
  }
  return joined(pieces, size);
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
