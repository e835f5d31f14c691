// kube-apiserver's field-manager pieces: identifiers, entry (de)coding,
// validation of names and entries, the default manager, timestamps.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { buildManagerIdentifier } from './identifier';
import { decodeManagedFields, encodeManagedFields, ManagedFieldsDecodeError } from './managed';
import { printManager } from './conflict-error';
import { ignoreManagedFieldsTimestamps } from './timestamps';
import { defaultFieldManager } from './user-agent';
import { validateFieldManager, validateManagedFields } from './validation';

describe('manager identifiers', () => {
  it('Apply identifiers leave out the version; Update identifiers keep it', () => {
    expect(buildManagerIdentifier({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', subresource: '' })).toBe('{"manager":"kubectl","operation":"Apply"}');
    expect(buildManagerIdentifier({ manager: 'kcm', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' })).toBe(
      '{"manager":"kcm","operation":"Update","apiVersion":"apps/v1","subresource":"status"}',
    );
  });

  it('print as kube prints them in conflicts', () => {
    expect(printManager('{"manager":"kubectl","operation":"Apply"}')).toBe('"kubectl"');
    expect(printManager('{"manager":"kcm","operation":"Update","apiVersion":"apps/v1","subresource":"scale"}')).toBe('"kcm" with subresource "scale" using apps/v1');
    expect(printManager('not json')).toBe('"not json"');
  });
});

describe('decodeManagedFields', () => {
  const entry = { manager: 'm', operation: 'Update' as const, apiVersion: 'v1', fieldsType: 'FieldsV1' as const, fieldsV1: { 'f:a': {} } };

  it('rejects entries kube cannot decode, with its messages', () => {
    expect(() => decodeManagedFields([{ ...entry, operation: 'X' as never }])).toThrow(new ManagedFieldsDecodeError('operation must be `Apply` or `Update`'));
    expect(() => decodeManagedFields([{ ...entry, apiVersion: '' }])).toThrow('apiVersion must not be empty');
    expect(() => decodeManagedFields([entry, { ...entry, fieldsType: undefined }])).toThrow('missing fieldsType in managed fields entry 1');
    expect(() => decodeManagedFields([{ ...entry, fieldsType: 'FieldsV2' as never }])).toThrow('invalid fieldsType "FieldsV2" in managed fields entry 0');
  });

  it('round-trips entries, sorted as kube sorts them', () => {
    const entries = [
      { ...entry, manager: 'b', time: '2024-01-01T00:00:02Z' },
      { ...entry, manager: 'a', time: '2024-01-01T00:00:02Z' },
      { ...entry, manager: 'z', operation: 'Apply' as const, time: '2024-01-01T00:00:09Z' },
      { ...entry, manager: 'c', time: '2024-01-01T00:00:01Z', subresource: 'status' },
    ];
    expect(encodeManagedFields(decodeManagedFields(entries))!.map((e) => e.manager)).toEqual(['z', 'c', 'a', 'b']);
  });

  it('encodes no entries as no field at all', () => {
    expect(encodeManagedFields(decodeManagedFields([]))).toBeUndefined();
  });
});

describe('validation', () => {
  it('field manager names: at most 128 bytes, printable', () => {
    expect(validateFieldManager('kubectl')).toEqual([]);
    expect(validateFieldManager('x'.repeat(129)).map((e) => e.type)).toEqual(['FieldValueTooLong']);
    expect(validateFieldManager('a\x01b')).toEqual([
      { type: 'FieldValueInvalid', field: 'fieldManager', value: 'a\x01b', detail: 'invalid character U+0001 (at position 1)' },
    ]);
    expect(validateFieldManager('é\t')[0]!.detail).toBe('invalid character U+0009 (at position 2)');
  });

  it('managed fields entries: operation, fieldsType, manager', () => {
    expect(validateManagedFields([{ operation: 'Bogus' as never, fieldsType: 'X' as never, manager: 'ok' }])).toEqual([
      { type: 'FieldValueInvalid', field: 'metadata.managedFields[0].operation', value: 'Bogus', detail: 'must be `Apply` or `Update`' },
      { type: 'FieldValueInvalid', field: 'metadata.managedFields[0].fieldsType', value: 'X', detail: 'must be `FieldsV1`' },
    ]);
  });
});

describe('defaultFieldManager', () => {
  it('takes the User-Agent’s product', () => {
    expect(defaultFieldManager('kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd')).toBe('kubectl');
    expect(defaultFieldManager('Mozilla/5.0 (X11)')).toBe('Mozilla');
    expect(defaultFieldManager('my\ttool/1')).toBe('mytool');
    expect(defaultFieldManager(null)).toBe('');
    expect(defaultFieldManager('x'.repeat(200))).toHaveLength(128);
  });
});

describe('ignoreManagedFieldsTimestamps', () => {
  const obj = (time: string, data: string): KubeObject => ({
    metadata: { name: 'x', managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: {} }] },
    data: { a: data },
  });

  it('keeps the old times when nothing but times changed', () => {
    expect(ignoreManagedFieldsTimestamps(obj('2024-01-01T00:00:05Z', '1'), obj('2024-01-01T00:00:00Z', '1'))).toEqual(obj('2024-01-01T00:00:00Z', '1'));
  });

  it('keeps the new times when the object changed', () => {
    expect(ignoreManagedFieldsTimestamps(obj('2024-01-01T00:00:05Z', '2'), obj('2024-01-01T00:00:00Z', '1'))).toEqual(obj('2024-01-01T00:00:05Z', '2'));
  });
});
