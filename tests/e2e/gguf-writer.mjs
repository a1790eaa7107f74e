// Writes GGUF files for the end-to-end tests (the format of ggml's
// docs/gguf.md, version 3, little-endian): metadata, tensor infos, the
// header padded to 32 bytes; the tensor data is zeros, never held whole
// (a file is its header and its length: `bytesAt` serves any range).

/** ggml tensor types used here: id, elements per block, bytes per block. */
export const GGML = {
  F32: { id: 0, block: 1, bytes: 4 },
  F16: { id: 1, block: 1, bytes: 2 },
  Q8_0: { id: 8, block: 32, bytes: 34 },
  Q4_K: { id: 12, block: 256, bytes: 144 },
  Q5_K: { id: 13, block: 256, bytes: 176 },
  Q6_K: { id: 14, block: 256, bytes: 210 },
};

const ALIGN = 32n;
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10 };

/** A tensor's bytes: rows of whole blocks. */
export function tensorBytes(type, ne) {
  const t = GGML[type];
  const rows = ne.slice(1).reduce((a, b) => a * b, 1);
  return (ne[0] / t.block) * t.bytes * rows;
}

class Out {
  constructor() { this.parts = []; this.len = 0; }
  push(buf) { this.parts.push(buf); this.len += buf.length; }
  u32(n) { const b = Buffer.alloc(4); b.writeUInt32LE(n); this.push(b); }
  u64(n) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); this.push(b); }
  f32(x) { const b = Buffer.alloc(4); b.writeFloatLE(x); this.push(b); }
  str(s) { const b = Buffer.from(s, 'utf8'); this.u64(b.length); this.push(b); }
}

function value(out, v) {
  switch (v.type) {
    case 'u32': out.u32(v.value); break;
    case 'u64': out.u64(v.value); break;
    case 'f32': out.f32(v.value); break;
    case 'string': out.str(v.value); break;
    case 'strings':
      out.u32(T.string);
      out.u64(v.value.length);
      for (const s of v.value) out.str(s);
      break;
    default: throw new Error(`type ${v.type}`);
  }
}

/**
 * A GGUF file: `{ header: Buffer, length, tensorBytes }` from metadata
 * `[[key, {type, value}]]` and tensors `[[name, ne, type]]`.
 */
export function gguf(metadata, tensors) {
  const out = new Out();
  out.push(Buffer.from('GGUF'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, v] of metadata) {
    out.str(key);
    out.u32(v.type === 'strings' ? T.array : T[v.type]);
    value(out, v);
  }
  let offset = 0n;
  let total = 0;
  for (const [name, ne, type] of tensors) {
    out.str(name);
    out.u32(ne.length);
    for (const n of ne) out.u64(n);
    out.u32(GGML[type].id);
    out.u64(offset);
    const bytes = tensorBytes(type, ne);
    total += bytes;
    offset += ((BigInt(bytes) + ALIGN - 1n) / ALIGN) * ALIGN;
  }
  let header = Buffer.concat(out.parts);
  const padded = Number(((BigInt(header.length) + ALIGN - 1n) / ALIGN) * ALIGN);
  header = Buffer.concat([header, Buffer.alloc(padded - header.length)]);
  return { header, length: header.length + Number(offset), tensorBytes: total };
}

/** Bytes `start..=end` of a file: its header, then zeros. */
export function bytesAt(file, start, end) {
  const out = Buffer.alloc(end - start + 1);
  if (start < file.header.length) file.header.copy(out, 0, start, Math.min(end + 1, file.header.length));
  return out;
}

/**
 * A small llama-architecture model with mixed per-tensor types (as an
 * imatrix or "dynamic" quantization writes them) and a full vocabulary:
 * `shape` = { layers, embd, ff, heads, kvHeads, headDim, vocab, ctx }.
 * `shards` > 1 writes a split file: one GGUF per shard, the tensors dealt
 * out in order, the metadata in the first, `split.*` in each.
 */
export function mixedLlama(shape, shards = 1) {
  const { layers, embd, ff, heads, kvHeads, headDim, vocab, ctx } = shape;
  const tensors = [
    ['token_embd.weight', [embd, vocab], 'Q4_K'],
    ['output_norm.weight', [embd], 'F32'],
    ['output.weight', [embd, vocab], 'Q6_K'],
  ];
  for (let i = 0; i < layers; i++) {
    // Mixed: the first and last blocks kept at higher precision, the
    // value and down projections at Q6_K on alternate blocks.
    const edge = i === 0 || i === layers - 1;
    tensors.push(
      [`blk.${i}.attn_norm.weight`, [embd], 'F32'],
      [`blk.${i}.attn_q.weight`, [embd, heads * headDim], edge ? 'Q8_0' : 'Q4_K'],
      [`blk.${i}.attn_k.weight`, [embd, kvHeads * headDim], edge ? 'Q8_0' : 'Q4_K'],
      [`blk.${i}.attn_v.weight`, [embd, kvHeads * headDim], i % 2 ? 'Q6_K' : 'Q5_K'],
      [`blk.${i}.attn_output.weight`, [heads * headDim, embd], 'Q4_K'],
      [`blk.${i}.ffn_norm.weight`, [embd], 'F32'],
      [`blk.${i}.ffn_gate.weight`, [embd, ff], edge ? 'Q5_K' : 'Q4_K'],
      [`blk.${i}.ffn_up.weight`, [embd, ff], 'Q4_K'],
      [`blk.${i}.ffn_down.weight`, [ff, embd], i % 2 ? 'Q6_K' : 'Q8_0'],
    );
  }
  const tokens = Array.from({ length: vocab }, (_, i) => `<tok_${i.toString(16).padStart(6, '0')}>`);
  const meta = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'Mixed Test Llama' }],
    ['general.file_type', { type: 'u32', value: 15 }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.context_length', { type: 'u32', value: ctx }],
    ['llama.embedding_length', { type: 'u32', value: embd }],
    ['llama.feed_forward_length', { type: 'u32', value: ff }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: kvHeads }],
    ['llama.attention.key_length', { type: 'u32', value: headDim }],
    ['llama.attention.value_length', { type: 'u32', value: headDim }],
    ['llama.rope.freq_base', { type: 'f32', value: 500000 }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['tokenizer.ggml.model', { type: 'string', value: 'gpt2' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: tokens }],
  ];
  if (shards === 1) return [gguf(meta, tensors)];
  const per = Math.ceil(tensors.length / shards);
  return Array.from({ length: shards }, (_, s) => {
    const split = [
      ['split.no', { type: 'u32', value: s }],
      ['split.count', { type: 'u32', value: shards }],
      ['split.tensors.count', { type: 'u32', value: tensors.length }],
    ];
    return gguf(s === 0 ? [...meta, ...split] : [['general.architecture', { type: 'string', value: 'llama' }], ...split], tensors.slice(s * per, (s + 1) * per));
  });
}

/**
 * A request handler serving `files` (path → file) with `Range: bytes=a-b`
 * support; `counter.bytes` counts the body bytes sent, `counter.requests`
 * the requests.
 */
export function rangeServer(files, counter) {
  return (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const file = files[path];
    counter.requests += 1;
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!m) {
      // The whole file: what a page must never ask for.
      res.writeHead(200, { 'content-length': file.length, 'accept-ranges': 'bytes' });
      counter.whole += 1;
      res.end();
      return;
    }
    const start = Number(m[1]);
    if (start >= file.length) {
      res.writeHead(416, { 'content-range': `bytes */${file.length}` }).end();
      return;
    }
    const end = Math.min(m[2] === '' ? file.length - 1 : Number(m[2]), file.length - 1);
    const body = bytesAt(file, start, end);
    counter.bytes += body.length;
    res.writeHead(206, {
      'content-range': `bytes ${start}-${end}/${file.length}`,
      'content-length': body.length,
      'accept-ranges': 'bytes',
    });
    res.end(body);
  };
}
