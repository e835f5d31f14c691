// The streamed list body is byte for byte the body written at once — whatever
// the texts hold and wherever the 64 KiB chunk boundaries fall (rule: a list
// is answered in chunks, never as one string, without changing a byte).

import { describe, expect, it } from 'vitest';
import type { KeyValue } from '../storage/types';
import { streamJsonList } from './list-stream';

const kv = (value: string, i: number): KeyValue => ({ key: `/k/${i}`, value, createRevision: 1, modRevision: 1, version: 1 });

async function read(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number[] }> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), chunks: parts.map((p) => p.byteLength) };
}

const HEAD = '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[';
const TAIL = ']}\n';

describe('streamJsonList', () => {
  it('an empty list is the head and the tail', async () => {
    expect((await read(streamJsonList(HEAD, [], TAIL))).text).toBe(`${HEAD}${TAIL}`);
  });

  it('items are joined by commas, in order, and every chunk but the last is 64 KiB', async () => {
    const values = Array.from({ length: 500 }, (_, i) => JSON.stringify({ metadata: { name: `cm-${i}` }, data: { pad: 'x'.repeat(200 + (i % 37)) } }));
    const { text, chunks } = await read(streamJsonList(HEAD, values.map(kv), TAIL));
    expect(text).toBe(`${HEAD}${values.join(',')}${TAIL}`);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.slice(0, -1).every((n) => n === 64 * 1024)).toBe(true);
  });

  it('multi-byte characters and surrogate pairs survive chunk boundaries, and one text may span several chunks', async () => {
    // 'é' is 2 bytes, '€' 3, '😀' 4 (a surrogate pair): with these lengths the boundaries fall inside characters.
    const values = [
      JSON.stringify({ a: 'é€😀'.repeat(30_000) }),
      JSON.stringify({ b: 'x' }),
      JSON.stringify({ c: `${'y'.repeat(65_530)}😀€é` }),
      JSON.stringify({ d: '\u2028<&>' }),
    ];
    const { text, chunks } = await read(streamJsonList(HEAD, values.map(kv), TAIL));
    expect(text).toBe(`${HEAD}${values.join(',')}${TAIL}`);
    expect(chunks.length).toBeGreaterThan(4);
  });

  it('a comma that falls on a chunk boundary is written once', async () => {
    for (const first of [64 * 1024 - HEAD.length - 1, 64 * 1024 - HEAD.length, 64 * 1024 - HEAD.length + 1]) {
      const values = [`"${'z'.repeat(first - 2)}"`, '"second"', '"third"'];
      const { text } = await read(streamJsonList(HEAD, values.map(kv), TAIL));
      expect(text).toBe(`${HEAD}${values.join(',')}${TAIL}`);
    }
  });
});

describe('streamJsonList with bytes kept from an earlier list (docs/decisions/0173)', () => {
  it('a second list of the same values, and a list after one value was replaced, are byte for byte right', async () => {
    const values = Array.from({ length: 300 }, (_, i) => JSON.stringify({ metadata: { name: `cm-${i}` }, data: { pad: 'é'.repeat(150 + i) } }));
    const kvs = values.map(kv);
    expect((await read(streamJsonList(HEAD, kvs, TAIL))).text).toBe(`${HEAD}${values.join(',')}${TAIL}`);
    expect((await read(streamJsonList(HEAD, kvs, TAIL))).text).toBe(`${HEAD}${values.join(',')}${TAIL}`);
    // A write gives the key a new KeyValue: its new text is listed, not the bytes of the old one.
    const replaced = JSON.stringify({ metadata: { name: 'cm-7' }, data: { pad: 'new' } });
    const next = kvs.map((item, i) => (i === 7 ? { ...item, value: replaced, modRevision: 2 } : item));
    const expected = values.map((v, i) => (i === 7 ? replaced : v));
    expect((await read(streamJsonList(HEAD, next, TAIL))).text).toBe(`${HEAD}${expected.join(',')}${TAIL}`);
  });
});

describe('streamJsonList with joined items kept under a cache key (docs/decisions/0330)', () => {
  const values = Array.from({ length: 400 }, (_, i) => JSON.stringify({ metadata: { name: `cm-${i}` }, data: { pad: '€'.repeat(100 + i) } }));

  it('the next list of the same values under the same key is byte for byte right, in 64 KiB chunks', async () => {
    const kvs = values.map(kv);
    const first = await read(streamJsonList(HEAD, kvs, TAIL, 'joined-1'));
    const second = await read(streamJsonList(HEAD, [...kvs], TAIL, 'joined-1'));
    expect(second.text).toBe(`${HEAD}${values.join(',')}${TAIL}`);
    expect(second.chunks).toEqual(first.chunks);
    expect(second.chunks.slice(0, -1).every((n) => n === 64 * 1024)).toBe(true);
  });

  it('a key whose values changed (a write, a delete, an added item) lists the new values, not the kept bytes', async () => {
    const kvs = values.map(kv);
    await read(streamJsonList(HEAD, kvs, TAIL, 'joined-2'));
    const replaced = JSON.stringify({ metadata: { name: 'cm-3' }, data: { pad: 'changed' } });
    const written = kvs.map((item, i) => (i === 3 ? { ...item, value: replaced, modRevision: 2 } : item));
    expect((await read(streamJsonList(HEAD, written, TAIL, 'joined-2'))).text).toBe(`${HEAD}${values.map((v, i) => (i === 3 ? replaced : v)).join(',')}${TAIL}`);
    const deleted = written.slice(1);
    expect((await read(streamJsonList(HEAD, deleted, TAIL, 'joined-2'))).text).toBe(`${HEAD}${deleted.map((k) => k.value).join(',')}${TAIL}`);
    const added = [...deleted, kv('"added"', 999)];
    expect((await read(streamJsonList(HEAD, added, TAIL, 'joined-2'))).text).toBe(`${HEAD}${added.map((k) => k.value).join(',')}${TAIL}`);
  });

  it('lists under other keys, and the head and tail of each list, are their own', async () => {
    const kvs = values.map(kv);
    const otherHead = HEAD.replace('"7"', '"8"');
    await read(streamJsonList(HEAD, kvs, TAIL, 'joined-3'));
    expect((await read(streamJsonList(otherHead, kvs.slice(0, 2), TAIL, 'joined-4'))).text).toBe(`${otherHead}${values.slice(0, 2).join(',')}${TAIL}`);
    expect((await read(streamJsonList(otherHead, kvs, TAIL, 'joined-3'))).text).toBe(`${otherHead}${values.join(',')}${TAIL}`);
    expect((await read(streamJsonList(HEAD, [], TAIL, 'joined-5'))).text).toBe(`${HEAD}${TAIL}`);
  });

  it('more lists than are kept still answer right (the least recently listed are dropped)', async () => {
    const kvs = values.slice(0, 5).map(kv);
    for (let i = 0; i < 100; i++) await read(streamJsonList(HEAD, kvs.slice(0, 1 + (i % 5)), TAIL, `many-${i}`));
    expect((await read(streamJsonList(HEAD, kvs, TAIL, 'many-0'))).text).toBe(`${HEAD}${values.slice(0, 5).join(',')}${TAIL}`);
  });
});
