import { describe, expect, it } from 'vitest';
import { parseWarnings } from './warnings';

describe('Warning headers', () => {
  it('decodes the quoted text of each warning, also when fetch joined several', () => {
    // As the server sends an unknown field under fieldValidation=Warn, twice joined by fetch.
    expect(parseWarnings('299 - "unknown field \\"bogus\\"", 299 - "metadata.finalizers: \\"x\\": prefer a domain-qualified finalizer name"')).toEqual([
      { code: 299, agent: '-', text: 'unknown field "bogus"' },
      { code: 299, agent: '-', text: 'metadata.finalizers: "x": prefer a domain-qualified finalizer name' },
    ]);
    expect(parseWarnings(null)).toEqual([]);
  });
});
