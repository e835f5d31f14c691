// Decoded JSON may hold the key "__proto__" as data (Go has no such key to
// trip over). Plain assignment would set the object's prototype instead, so
// every writer of decoded members goes through this.

/** Sets an own, enumerable member, also for the key "__proto__". */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
