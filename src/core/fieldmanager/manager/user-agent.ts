// The manager of a write that names no fieldManager: the product token of
// the User-Agent (kube-apiserver's prefixFromUserAgent): the text before the
// first '/', printable characters only, cut at 128 bytes. kubectl sends
// "kubectl/v1.32.4 (linux/amd64) kubernetes/…" but names its manager
// explicitly for most commands (kubectl-create, kubectl-edit, kubectl, …).
// An empty result is recorded as "unknown" by the field manager.

import { isGoPrint } from '../../util/go/quote';
import { utf8Length } from '../../util/go/strings';
import { FIELD_MANAGER_MAX_LENGTH } from './validation';

export function defaultFieldManager(userAgent: string | null): string {
  const product = (userAgent ?? '').split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of product) {
    if (!isGoPrint(ch.codePointAt(0)!)) continue;
    const n = utf8Length(ch);
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** managerOrUserAgent: the explicit manager when given, else the User-Agent's product. */
export function managerOrUserAgent(fieldManager: string | null | undefined, userAgent: string | null): string {
  return fieldManager ? fieldManager : defaultFieldManager(userAgent);
}
