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
  const out = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
