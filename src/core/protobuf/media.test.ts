// Which Content-Type headers select the protobuf decoder (kube compares the
// parsed media type, parameters ignored, case-insensitively).

import { describe, expect, it } from 'vitest';
import { isProtobufMediaType } from './media';

describe('isProtobufMediaType', () => {
  it.each([
    ['application/vnd.kubernetes.protobuf', true],
    ['application/vnd.kubernetes.protobuf; charset=utf-8', true],
    ['Application/VND.Kubernetes.Protobuf', true],
    ['application/vnd.kubernetes.protobuf;stream=watch', true],
    ['application/json', false],
    ['application/vnd.kubernetes.protobuf+json', false],
    ['', false],
    [null, false],
  ])('%s → %s', (header, expected) => {
    expect(isProtobufMediaType(header)).toBe(expected);
  });
});
