#!/usr/bin/env node
// The `paleo` CLI's reader of .onnx files: prints the file's graph as the JSON `net` of a
// request (tools/onnx_graph_decoder.mjs). Usage: node tools/onnx_to_graph.mjs MODEL.onnx
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { onnxGraph } from './onnx_graph_decoder.mjs';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: node tools/onnx_to_graph.mjs MODEL.onnx\n');
  process.exit(2);
}
try {
  process.stdout.write(JSON.stringify(onnxGraph(readFileSync(path), basename(path, '.onnx'))));
} catch (e) {
  process.stderr.write(`${path}: not a readable ONNX model: ${e.message}\n`);
  process.exit(1);
}
