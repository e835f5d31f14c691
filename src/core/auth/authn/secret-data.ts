// Reading Secret data the way a controller does: `data` values are base64;
// `stringData` never reaches storage, but objects handed over before
// defaulting may still carry it, so it is read too.

import type { KubeObject } from '../../kinds/types';

const decoder = new TextDecoder();

export function base64ToBytes(value: string): Uint8Array {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function secretBytes(secret: KubeObject, key: string): Uint8Array | undefined {
  const data = secret.data as Record<string, string> | undefined;
  if (data && typeof data[key] === 'string') {
    try {
      return base64ToBytes(data[key]!);
    } catch {
      return undefined;
    }
  }
  const stringData = secret.stringData as Record<string, string> | undefined;
  if (stringData && typeof stringData[key] === 'string') return new TextEncoder().encode(stringData[key]);
  return undefined;
}

export function secretString(secret: KubeObject, key: string): string {
  const bytes = secretBytes(secret, key);
  return bytes ? decoder.decode(bytes) : '';
}
