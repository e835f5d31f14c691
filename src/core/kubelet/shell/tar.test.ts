// tar and the byte text under it, as `kubectl cp` relies on them: archives
// made in one container extract byte for byte in another (binary files, a
// directory tree, names longer than ustar's fields), from stdin that arrives
// in arbitrary chunks; archives other tars write (pax headers, as Go's
// archive/tar in kubectl writes them) read as well.

import { describe, expect, it } from 'vitest';
import { ByteStreamDecoder, bytesToText, textToBytes } from './bytes';
import { run } from './testing/run';

const ALL_BYTES = Uint8Array.from({ length: 1024 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

/** What `kubectl exec -i` does to a byte stream: sends it in chunks the kubelet decodes as they come. */
function asStdinChunks(bytes: Uint8Array, size: number): string[] {
  const decoder = new ByteStreamDecoder();
  const chunks: string[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(decoder.decode(bytes.subarray(at, at + size)));
  chunks.push(decoder.decode(null));
  return chunks.filter((c) => c !== '');
}

describe('byte text', () => {
  it('keeps any bytes through text and back, and leaves UTF-8 text as it is', () => {
    expect(textToBytes(bytesToText(ALL_BYTES))).toEqual(ALL_BYTES);
    const text = 'ünïcode 😀 \uFEFFbom';
    expect(bytesToText(new TextEncoder().encode(text))).toBe(text);
    expect(textToBytes(text)).toEqual(new TextEncoder().encode(text));
    // Invalid sequences: truncated, overlong, surrogates encoded, beyond U+10FFFF.
    const odd = Uint8Array.from([0xe2, 0x82, 0x41, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xff, 0xf0, 0x9f, 0x98]);
    expect(textToBytes(bytesToText(odd))).toEqual(odd);
  });

  it('decodes a stream cut anywhere the same as the whole', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('€ and 😀 and ü'), ...ALL_BYTES]);
    for (const size of [1, 2, 3, 5, 64]) expect(asStdinChunks(bytes, size).join('')).toBe(bytesToText(bytes));
  });
});

describe('tar', () => {
  const longDirectory = 'a-directory-whose-name-is-long-enough'.repeat(3);
  const longFile = `${'f'.repeat(120)}.txt`;
  const files = {
    '/src/data/notes.txt': 'hello\n',
    '/src/data/blob.bin': bytesToText(ALL_BYTES),
    '/src/data/sub/ünï.txt': 'ünïcode\n',
    [`/src/data/${longDirectory}/${longFile}`]: 'deep\n',
  };

  it('round-trips a tree with binary content and long names, byte for byte, through stdin in chunks', async () => {
    const created = await run(['tar', 'cf', '-', '-C', '/src', 'data'], { files });
    expect(created.code).toBe(0);
    expect(created.err).toBe('');
    const archive = textToBytes(created.out);
    expect(archive.length % 512).toBe(0);
    expect(new TextDecoder().decode(archive.subarray(257, 265))).toBe('ustar  \0');

    for (const size of [7, 4096]) {
      const extracted = await run(['tar', '-xmf', '-', '-C', '/dest'], { stdin: asStdinChunks(archive, size), directories: ['/dest'] });
      expect(extracted.code).toBe(0);
      expect(extracted.err).toBe('');
      const fs = extracted.io.fs;
      expect(textToBytes(fs.read('/dest/data/blob.bin')!)).toEqual(ALL_BYTES);
      expect(fs.read('/dest/data/notes.txt')).toBe('hello\n');
      expect(fs.read('/dest/data/sub/ünï.txt')).toBe('ünïcode\n');
      expect(fs.read(`/dest/data/${longDirectory}/${longFile}`)).toBe('deep\n');
    }
  });

  it('lists an archive, verbosely as busybox does', async () => {
    const archive = (await run(['tar', 'cf', '/tmp/a.tar', '-C', '/src', 'data/notes.txt', 'data/sub'], { files, directories: ['/tmp'] })).io;
    const listed = await run(['tar', 'tf', '/tmp/a.tar'], { files: { '/tmp/a.tar': archive.fs.read('/tmp/a.tar')! } });
    expect(listed.out).toBe('data/notes.txt\ndata/sub/\ndata/sub/ünï.txt\n');
    const verbose = await run(['tar', '-tvf', '/tmp/a.tar'], { files: { '/tmp/a.tar': archive.fs.read('/tmp/a.tar')! } });
    expect(verbose.out).toBe(
      '-rw-r--r-- root/root         6 2026-11-28 17:42:17 data/notes.txt\n' +
        'drwxr-xr-x root/root         0 2026-11-28 17:42:17 data/sub/\n' +
        '-rw-r--r-- root/root        10 2026-11-28 17:42:17 data/sub/ünï.txt\n',
    );
  });

  it('extracts a file copied out of the container with an absolute path, to stdout with -O and as named members', async () => {
    const created = await run(['tar', 'cf', '-', '/src/data/blob.bin'], { files });
    expect(created.err).toBe("tar: removing leading '/' from member names\n");
    const out = await run(['tar', 'xOf', '-'], { stdin: [created.out] });
    expect(textToBytes(out.out)).toEqual(ALL_BYTES);
    const missing = await run(['tar', 'xf', '-', 'nope'], { stdin: [created.out] });
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('tar: nope: not found in archive\n');
  });

  it('reads pax headers (Go archive/tar, kubectl cp) and ustar name prefixes', async () => {
    const longName = `dir/${'x'.repeat(200)}.bin`;
    const record = (key: string, value: string) => {
      const body = ` ${key}=${value}\n`;
      let length = body.length + 2;
      while (String(length).length + body.length !== length) length++;
      return `${length}${body}`;
    };
    const header = (name: string, type: string, size: number, prefix = '') => {
      const block = new Uint8Array(512);
      const put = (text: string, at: number) => block.set(new TextEncoder().encode(text), at);
      put(name, 0);
      put('0000644\0', 100);
      put(`${size.toString(8).padStart(11, '0')}\0`, 124);
      put('00000000000\0', 136);
      put(type, 156);
      put('ustar\x0000', 257);
      put(prefix, 345);
      block.fill(0x20, 148, 156);
      put(`${block.reduce((a, b) => a + b, 0).toString(8).padStart(6, '0')}\0 `, 148);
      return block;
    };
    const pad = (bytes: Uint8Array) => new Uint8Array([...bytes, ...new Uint8Array((512 - (bytes.length % 512)) % 512)]);
    const pax = new TextEncoder().encode(record('path', longName));
    const archive = new Uint8Array([
      ...header('PaxHeaders/x', 'x', pax.length),
      ...pad(pax),
      ...header('truncated', '0', ALL_BYTES.length),
      ...pad(ALL_BYTES),
      ...header('file.txt', '0', 3, 'some/prefix'),
      ...pad(new TextEncoder().encode('hi\n')),
      ...new Uint8Array(1024),
    ]);
    const extracted = await run(['tar', '-xmf', '-', '-C', '/in'], { stdin: asStdinChunks(archive, 100), directories: ['/in'] });
    expect(extracted.err).toBe('');
    expect(textToBytes(extracted.io.fs.read(`/in/${longName}`)!)).toEqual(ALL_BYTES);
    expect(extracted.io.fs.read('/in/some/prefix/file.txt')).toBe('hi\n');
  });

  it('complains as busybox does: damaged or cut-short archives, compression, no mode', async () => {
    const archive = textToBytes((await run(['tar', 'cf', '-', '-C', '/src', 'data/notes.txt'], { files })).out);
    const damaged = archive.slice();
    damaged[0] = 0x41;
    const bad = await run(['tar', 'tf', '-'], { stdin: [bytesToText(damaged)] });
    expect(bad.err).toBe('tar: invalid tar header checksum\n');
    expect(bad.code).toBe(1);
    const short = await run(['tar', 'tf', '-'], { stdin: [bytesToText(archive.subarray(0, 600))] });
    // The member before the cut is listed, then the complaint.
    expect(short.out).toBe('data/notes.txt\n');
    expect(short.err).toBe('tar: short read\n');
    expect((await run(['tar', 'czf', '-', 'x'])).err).toBe("tar: invalid option -- 'z'\n");
    expect((await run(['tar', 'f', '-'])).err).toBe('tar: need exactly one of -c, -x or -t\n');
    const readOnly = await run(['tar', 'xf', '-', '-C', '/ro'], { stdin: [bytesToText(archive)], directories: ['/ro'], readOnly: ['/ro'] });
    expect(readOnly.code).toBe(1);
    expect(readOnly.err).toMatch(/^tar: can't (create directory|open) '.*': Read-only file system\n$/);
  });
});
