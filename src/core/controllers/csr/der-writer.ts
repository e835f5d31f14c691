// DER encoders the certificate issuer needs beyond root-ca/der.ts: NULL
// (RSA algorithm parameters) and context-specific primitive values
// (subjectAltName entries, the authority key identifier).

import { tlv, type Bytes } from '../root-ca/der';

export const nullValue = (): Bytes => Uint8Array.of(0x05, 0x00);

/** [n] IMPLICIT primitive: a context-specific tag over raw content. */
export const implicitPrimitive = (n: number, value: Bytes): Bytes => tlv(0x80 + n, value);
