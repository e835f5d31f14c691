import { describe, expect, it } from 'vitest';
import { messageThrownBy, thrownBy } from './thrown';

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
