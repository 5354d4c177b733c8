// The page's link written without a long task: a state holding a long pasted net deflates in
// slices, by the browser's CompressionStream, with the browser's turn in between (fflate's
// deflateSync at level 9 took 0.2 s for 0.7 MB of parameters, on every change of any input).
import { SLICE_MS, joined, yieldToBrowser } from './link_inflate.js';

const STREAM_PIECE_BYTES = 64 * 1024;

// Raw deflate of `bytes` (the browser's zlib at its default level).
export async function deflateStreaming(bytes) {
  const stream = new CompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const writing = (async () => {
    for (let at = 0; at < bytes.length; at += STREAM_PIECE_BYTES) {
      await writer.ready;
      await writer.write(bytes.subarray(at, at + STREAM_PIECE_BYTES));
    }
    await writer.close();
  })();
  writing.catch(() => {});
  const pieces = [];
  let size = 0;
  let since = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    size += value.length;
    if (performance.now() - since > SLICE_MS) {
      await yieldToBrowser();
      since = performance.now();
    }
  }
  return joined(pieces, size);
}
