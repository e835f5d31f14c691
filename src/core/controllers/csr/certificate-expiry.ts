// The notAfter of a DER certificate (the CSR cleaner deletes requests whose
// certificate has expired).

import { childrenOf, content, readElement } from './der-reader';

export function certificateNotAfter(der: Uint8Array): number {
  const cert = readElement(der, 0);
  const tbs = childrenOf(der, cert)[0]!;
  const fields = childrenOf(der, tbs);
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  const validity = rest[3];
  if (!validity) throw new Error('malformed certificate');
  const notAfter = childrenOf(der, validity)[1]!;
  const text = new TextDecoder().decode(content(der, notAfter));
  const full = notAfter.tag === 0x17 ? `${Number(text.slice(0, 2)) >= 50 ? '19' : '20'}${text}` : text;
  return Date.UTC(Number(full.slice(0, 4)), Number(full.slice(4, 6)) - 1, Number(full.slice(6, 8)), Number(full.slice(8, 10)), Number(full.slice(10, 12)), Number(full.slice(12, 14)));
}
