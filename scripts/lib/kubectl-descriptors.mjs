// The protobuf file descriptors a kubectl binary carries: Go registers each
// generated.proto's FileDescriptorProto gzipped in the binary. Both generators
// that learn Kubernetes' protobuf facts from kubectl 1.32 read them here
// (scripts/gen-protobuf-table.mjs, scripts/gen-field-order.mjs).

import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { inflateRawSync, constants as zlibConstants } from 'node:zlib';

/** The kubectl 1.32 binary: `given` (--kubectl), $KUBECTL_132, the SDK's versioned one, or the one on PATH. */
export function findKubectl(given) {
  const chosen = given ?? process.env.KUBECTL_132;
  if (chosen) return chosen;
  if (existsSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.32')) return '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';
  try {
    return execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** A minimal protobuf reader, enough for descriptor.proto: varints as BigInt `value`, everything else as `bytes`. */
export function readFields(buf) {
  const out = [];
  let i = 0;
  const varint = () => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error('truncated varint');
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const num = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ num, value: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ num, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) {
      out.push({ num, bytes: buf.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 5) {
      out.push({ num, bytes: buf.subarray(i, i + 4) });
      i += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

export const utf8 = (b) => Buffer.from(b).toString('utf8');

/** Every FileDescriptorProto named k8s.io/… found gzipped in a Go binary: file name → its top-level fields. */
export function k8sFileDescriptors(path) {
  const bin = readFileSync(path);
  const files = new Map();
  for (let i = bin.indexOf(0x1f); i !== -1 && i < bin.length - 10; i = bin.indexOf(0x1f, i + 1)) {
    // Go's gzip writer: magic, deflate, no flags, so the deflate stream starts
    // at byte 10. Inflating the raw stream stops at the end of this member
    // (gunzip would run on into the next descriptor, which often follows).
    if (bin[i + 1] !== 0x8b || bin[i + 2] !== 8 || bin[i + 3] !== 0) continue;
    let out;
    try {
      out = inflateRawSync(bin.subarray(i + 10, i + 4_000_000), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch {
      continue;
    }
    if (out[0] !== 0x0a) continue;
    let fields;
    try {
      fields = readFields(out);
    } catch {
      continue;
    }
    const name = fields.find((f) => f.num === 1);
    if (!name || !utf8(name.bytes).startsWith('k8s.io/')) continue;
    files.set(utf8(name.bytes), fields);
  }
  return files;
}
