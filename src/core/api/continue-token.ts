// Continue tokens in kube-apiserver's format: base64url (no padding) of
// {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the prefix>\u0000"}.
// KubeTab adds "r" (the collection prefix's resource) so that a token from
// another resource is refused instead of silently listing from a foreign key;
// kube-apiserver ignores unknown fields, so the format stays compatible.

import { errors } from '../errors/status';

const VERSION = 'meta.k8s.io/v1';

export interface ContinueToken {
  /** Revision of the first chunk; -1 means "continue at the latest revision" (after a 410). */
  readonly revision: number;
  /** Key (relative to the collection prefix) after which to continue. */
  readonly after: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(token: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) {
    const bad = token.search(/[^A-Za-z0-9_-]/);
    throw new Error(`illegal base64 data at input byte ${bad}`);
  }
  if (token.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${token.length - 1}`);
  const padded = token.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (token.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

export function encodeContinue(revision: number, lastKeyRelative: string, resource: string): string {
  return toBase64Url(JSON.stringify({ v: VERSION, rv: revision, start: `${lastKeyRelative}\u0000`, r: resource }));
}

function invalid(detail: string): never {
  throw errors.badRequest(`invalid continue token: ${detail}`);
}

/** Decodes a token; every malformed token is a 400 "invalid continue token: …". */
export function decodeContinue(token: string, resource: string): ContinueToken {
  let text: string;
  try {
    text = fromBase64Url(token);
  } catch (err) {
    invalid((err as Error).message);
  }
  let parsed: { v?: unknown; rv?: unknown; start?: unknown; r?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    invalid('invalid character looking for beginning of value');
  }
  if (parsed === null || typeof parsed !== 'object') invalid('continue key is not valid: not an object');
  if (parsed.v !== VERSION) invalid(`server does not recognize this encoded version ${JSON.stringify(String(parsed.v ?? ''))}`);
  if (typeof parsed.rv !== 'number' || !Number.isInteger(parsed.rv) || parsed.rv === 0) {
    invalid(`continue key is not valid: incorrect encoded start resourceVersion (version ${VERSION})`);
  }
  if (typeof parsed.start !== 'string' || parsed.start.length === 0) invalid('continue key is not valid: encoded start key is empty');
  if (parsed.r !== undefined && parsed.r !== resource) invalid('continue key is not valid: the token was issued for another resource');
  const start = parsed.start;
  if (start.includes('..') || start.startsWith('/')) invalid('continue key is not valid: path must not contain relative segments');
  const after = start.endsWith('\u0000') ? start.slice(0, -1) : start;
  return { revision: parsed.rv, after };
}
