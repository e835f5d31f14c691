// Name checks and their messages, as k8s.io/apimachinery's util/validation
// words them (issue "Every kind of a 1.32 server": validation of names).

import { describe, expect, it } from 'vitest';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  nameIsDNSSubdomain,
  nameIsPathSegment,
} from './names';

describe('names', () => {
  it('DNS-1123 subdomain: message and the 253 limit', () => {
    expect(isDNS1123Subdomain('a.b-c')).toEqual([]);
    expect(isDNS1123Subdomain('A')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });

  it('DNS-1123 label and DNS-1035 label (services)', () => {
    expect(isDNS1123Label('1abc')).toEqual([]);
    expect(isDNS1035Label('1abc')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it('generateName prefixes may end in a dash (maskTrailingDash)', () => {
    expect(nameIsDNSSubdomain('web-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('web-', false)).toHaveLength(1);
  });

  it('qualified names: prefix and name parts', () => {
    expect(isQualifiedName('example.com/my-key')).toEqual([]);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e.g. 'example.com\/MyName'\)$/);
    expect(isQualifiedName('-x')).toEqual([
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  it('label values may be empty but not start with a dash', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('-a')[0]).toMatch(/^a valid label must be an empty string or consist of/);
  });

  it('path-segment names (RBAC) reject ".", "..", "/" and "%"', () => {
    expect(nameIsPathSegment('system:admin', false)).toEqual([]);
    expect(nameIsPathSegment('..', false)).toEqual(["may not be '..'"]);
    expect(nameIsPathSegment('a/b%c', false)).toEqual(["may not contain '/'", "may not contain '%'"]);
  });

  it('port names follow IANA_SVC_NAME', () => {
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('80')).toEqual(['must contain at least one letter (a-z)']);
    expect(isValidPortName('a--b')).toEqual(['must not contain consecutive hyphens (-)']);
  });
});
