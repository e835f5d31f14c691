// Reading DER (the encoders are in root-ca/der.ts): tag-length-value
// elements with definite lengths, their children, and the few value types
// the CSR signer reads (OIDs, strings, bit strings). Throws on malformed
// input; callers turn that into kube's "unable to parse" errors.

export interface Element {
  readonly tag: number;
  /** Where the element's header starts. */
  readonly start: number;
  /** Where its content starts. */
  readonly contentStart: number;
  /** Where it ends (exclusive). */
  readonly end: number;
}

export function readElement(der: Uint8Array, at: number): Element {
  if (at + 2 > der.length) throw new Error('asn1: truncated element');
  const tag = der[at]!;
  let len = der[at + 1]!;
  let contentStart = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('asn1: unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[contentStart + i]!;
    contentStart += n;
  }
  const end = contentStart + len;
  if (end > der.length) throw new Error('asn1: truncated element');
  return { tag, start: at, contentStart, end };
}

export function childrenOf(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = readElement(der, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

export const raw = (der: Uint8Array, e: Element): Uint8Array => der.slice(e.start, e.end);
export const content = (der: Uint8Array, e: Element): Uint8Array => der.slice(e.contentStart, e.end);

export function decodeOid(bytes: Uint8Array): string {
  const subidentifiers: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      subidentifiers.push(value);
      value = 0;
    }
  }
  if (subidentifiers.length === 0) throw new Error('asn1: empty object identifier');
  // The first subidentifier packs the first two arcs (40 * a + b).
  const first = subidentifiers.shift()!;
  const a = first < 40 ? 0 : first < 80 ? 1 : 2;
  return [a, first - 40 * a, ...subidentifiers].join('.');
}

export function oidOf(der: Uint8Array, e: Element): string {
  if (e.tag !== 0x06) throw new Error('asn1: expected an object identifier');
  return decodeOid(content(der, e));
}

/** The text of a string element (UTF8String, PrintableString, IA5String, …). */
export function textOf(der: Uint8Array, e: Element): string {
  return new TextDecoder().decode(content(der, e));
}

export function pemBlocks(text: string, label: string): Uint8Array[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  const out: Uint8Array[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const binary = atob(m[1]!.replace(/\s+/g, ''));
    out.push(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  }
  return out;
}
