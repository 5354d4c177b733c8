// The page's link written without a long task: a state holding a long pasted net deflates in
// slices, by the browser's CompressionStream, with the browser's turn in between (fflate's
// deflateSync at level 9 took 0.2 s for 0.7 MB of parameters, on every change of any input).
import { throughStream } from './sliced_stream.js';

const STREAM_PIECE_BYTES = 64 * 1024;

// Raw deflate of `bytes` (the browser's zlib at its default level).
export function deflateStreaming(bytes) {
  return throughStream(new CompressionStream('deflate-raw'), bytes, STREAM_PIECE_BYTES);
}
