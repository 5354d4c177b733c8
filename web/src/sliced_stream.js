// Work on the page's main thread in slices, with the browser's turn in between, so that no task
// runs long (a 1 MB link inflates to megabytes; a long pasted net deflates for 0.2 s).

// The browser gets its turn this often.
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

// A function to call between pieces of work: it yields once a slice's time has passed.
export function slicer() {
  let since = performance.now();
  return async () => {
    if (performance.now() - since <= SLICE_MS) return;
    await yieldToBrowser();
    since = performance.now();
  };
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

// `bytes` through a browser transform stream (CompressionStream, DecompressionStream), written
// `pieceBytes` at a time; `onPiece(size so far)` may throw to stop it (a cap), and then the
// streams are cancelled. The output, joined.
export async function throughStream(stream, bytes, pieceBytes, onPiece = () => {}) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const writing = (async () => {
    for (let at = 0; at < bytes.length; at += pieceBytes) {
      await writer.ready;
      await writer.write(bytes.subarray(at, at + pieceBytes));
    }
    await writer.close();
  })();
  writing.catch(() => {});  // data the stream refuses: the reader reports it
  const pieces = [];
  let size = 0;
  const turn = slicer();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      onPiece(size);
      pieces.push(value);
      await turn();
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
    throw e;
  }
  return joined(pieces, size);
}
