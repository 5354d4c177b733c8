// An .onnx file's bytes without its weights, read piece by piece: the protobuf fields are walked
// through a reader of byte ranges, and the data of every large initializer (raw_data and the
// typed value lists) is skipped over without being read, so memory holds the graph, not the
// model's weights. What remains is a valid ModelProto for onnx_graph_decoder.mjs.
// Protobuf wire format: https://protobuf.dev/programming-guides/encoding/ (field numbers from onnx.proto).

const kModelGraph = 7;         // ModelProto.graph
const kGraphInitializer = 5;   // GraphProto.initializer
// TensorProto's value fields: float_data, int32_data, string_data, int64_data, raw_data, double_data, uint64_data.
const kTensorData = new Set([4, 5, 6, 7, 9, 10, 11]);
// Data up to this many bytes is kept: small integer tensors (Reshape targets, axes) are read for
// their values (64 int64 values as varints take at most 640 bytes).
const kKeptDataBytes = 1024;
const kChunkBytes = 1 << 14;  // each read: at most this much of a skipped tensor is read with its header

// read(offset, length) resolves to a Uint8Array of the file's bytes [offset, offset + length).
class RangeReader {
  constructor(read, size) {
    this.read = read;
    this.size = size;
    this.start = 0;
    this.window = new Uint8Array(0);
    this.bytesRead = 0;
  }

  async bytes(offset, length) {
    if (offset < 0 || length < 0 || offset + length > this.size) throw new Error('truncated protobuf: the file ends early');
    if (offset < this.start || offset + length > this.start + this.window.length) {
      const want = Math.min(this.size - offset, Math.max(length, kChunkBytes));
      this.window = await this.read(offset, want);
      if (this.window.length < length) throw new Error('truncated protobuf: the file ends early');
      this.start = offset;
      this.bytesRead += this.window.length;
    }
    return this.window.subarray(offset - this.start, offset - this.start + length);
  }

  // [value, the offset after it]
  async varint(offset) {
    const b = await this.bytes(offset, Math.min(10, this.size - offset));
    let value = 0;
    for (let i = 0; i < b.length; ++i) {
      value += (b[i] & 0x7f) * 2 ** (7 * i);
      if (!(b[i] & 0x80)) return [value, offset + i + 1];
    }
    throw new Error('malformed protobuf varint');
  }
}

function varintBytes(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Uint8Array.from(out);
}

// The fields of the message in [start, end), each kept as it is, dropped, or rewritten by
// `descend(field)` (a function for the submessage's fields, or null).
async function rewrite(reader, start, end, { drop, descend }) {
  const parts = [];
  let pos = start;
  while (pos < end) {
    const [tag, afterTag] = await reader.varint(pos);
    const field = Math.floor(tag / 8), wire = tag % 8;
    let next;
    if (wire === 0) next = (await reader.varint(afterTag))[1];
    else if (wire === 1) next = afterTag + 8;
    else if (wire === 5) next = afterTag + 4;
    else if (wire === 2) {
      const [length, payload] = await reader.varint(afterTag);
      next = payload + length;
      if (next > end) throw new Error('truncated protobuf: a field runs past its message');
      const rules = descend(field);
      if (rules) {
        const inner = await rewrite(reader, payload, next, rules);
        parts.push((await reader.bytes(pos, afterTag - pos)).slice(), varintBytes(inner.length), inner);
        pos = next;
        continue;
      }
      if (drop(field, length)) {
        pos = next;
        continue;
      }
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    if (next > end) throw new Error('truncated protobuf: a field runs past its message');
    parts.push((await reader.bytes(pos, next - pos)).slice());
    pos = next;
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const tensorRules = { drop: (field, length) => kTensorData.has(field) && length > kKeptDataBytes, descend: () => null };
const graphRules = { drop: () => false, descend: (field) => (field === kGraphInitializer ? tensorRules : null) };
const modelRules = { drop: () => false, descend: (field) => (field === kModelGraph ? graphRules : null) };

// The ModelProto bytes of a file of `size` bytes without its large initializers' data, and how
// many bytes of the file were read for them: { bytes, bytesRead }.
export async function onnxBytesWithoutWeights(read, size) {
  const reader = new RangeReader(read, size);
  const bytes = await rewrite(reader, 0, size, modelRules);
  return { bytes, bytesRead: reader.bytesRead };
}

