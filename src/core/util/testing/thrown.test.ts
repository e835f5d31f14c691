import { describe, expect, it } from 'vitest';
import { messageThrownBy, rejectionOf, thrownBy } from './thrown';

class Wanted extends Error {}

describe('thrownBy', () => {
  it('returns the thrown error of the type asked for', () => {
    const e = new Wanted('x');
    expect(thrownBy(() => { throw e; }, Wanted)).toBe(e);
  });

  it('lets another error through and fails when nothing is thrown', () => {
    expect(() => thrownBy(() => { throw new TypeError('other'); }, Wanted)).toThrow('other');
    expect(() => thrownBy(() => 1, Wanted)).toThrow('expected a Wanted to be thrown');
  });
});

describe('messageThrownBy', () => {
  it('is the message, or "no error"', () => {
    expect(messageThrownBy(() => { throw new Error('boom'); })).toBe('boom');
    expect(messageThrownBy(() => 1)).toBe('no error');
  });
});

describe('rejectionOf', () => {
  it('is the rejection of the type asked for; other rejections and fulfilment fail', async () => {
    const e = new Wanted('x');
    await expect(rejectionOf(Promise.reject(e), Wanted)).resolves.toBe(e);
    await expect(rejectionOf(Promise.reject(new TypeError('other')), Wanted)).rejects.toThrow('other');
    await expect(rejectionOf(Promise.resolve(1), Wanted)).rejects.toThrow('expected a Wanted rejection');
  });
});
