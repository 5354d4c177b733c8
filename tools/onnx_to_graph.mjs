#!/usr/bin/env node
// The `paleo` CLI's reader of .onnx files: prints the file's graph as the JSON `net` of a
// request (tools/onnx_graph_decoder.mjs). Usage: node tools/onnx_to_graph.mjs MODEL.onnx
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { onnxGraphOfFile } from './onnx_graph_decoder.mjs';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: node tools/onnx_to_graph.mjs MODEL.onnx\n');
  process.exit(2);
}
let file;
try {
  // Read in pieces: the weights are skipped over, not loaded (tools/onnx_weightless_bytes.mjs).
  file = await open(path, 'r');
  const { size } = await file.stat();
  const read = async (offset, length) => {
    const buffer = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await file.read(buffer, filled, length - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  };
  process.stdout.write(JSON.stringify(await onnxGraphOfFile(read, size, basename(path, '.onnx'))));
} catch (e) {
  process.stderr.write(`${path}: not a readable ONNX model: ${e.message}\n`);
  process.exitCode = 1;
} finally {
  await file?.close();
}
