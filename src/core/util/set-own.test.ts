import { describe, expect, it } from 'vitest';
import { setOwn } from './set-own';

describe('setOwn', () => {
  it('keeps "__proto__" as a member, as a JSON object from a client holds it', () => {
    const obj: Record<string, unknown> = {};
    setOwn(obj, '__proto__', { polluted: true });
    setOwn(obj, 'a', 1);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(Object.keys(obj)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });
});
