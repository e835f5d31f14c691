// Small hand-built schemas for scenarios. "Widget" has one field of each
// merge topology; "Config" is a ConfigMap-like map of strings.

import { createSchemaTable, type SchemaNode, type SchemaTable } from '../../schema/types';
import type { FieldManagerSchema } from '../index';

const str: SchemaNode = { type: 'string' };
const int: SchemaNode = { type: 'integer', format: 'int32' };
const bool: SchemaNode = { type: 'boolean' };
const strings: SchemaNode = { type: 'object', additionalProperties: str };

export const objectMeta: SchemaNode = {
  type: 'object',
  properties: {
    name: str,
    generateName: str,
    namespace: str,
    uid: str,
    resourceVersion: str,
    generation: { type: 'integer', format: 'int64' },
    creationTimestamp: { ref: 'meta.Time' },
    deletionTimestamp: { ref: 'meta.Time' },
    labels: strings,
    annotations: strings,
    finalizers: { type: 'array', items: str, listType: 'set', patchStrategy: 'merge' },
    ownerReferences: { type: 'array', items: { ref: 'meta.OwnerReference' }, listType: 'map', listMapKeys: ['uid'] },
    managedFields: { type: 'array', items: { type: 'any' }, listType: 'atomic' },
  },
};

export function widgetDefinitions(overrides: Record<string, SchemaNode> = {}): Record<string, SchemaNode> {
  return {
    'meta.Time': { type: 'string', format: 'date-time' },
    'meta.ObjectMeta': objectMeta,
    'meta.OwnerReference': {
      type: 'object',
      properties: { apiVersion: str, kind: str, name: str, uid: str, controller: bool },
      required: ['apiVersion', 'kind', 'name', 'uid'],
    },
    'meta.LabelSelector': { type: 'object', properties: { matchLabels: strings }, mapType: 'atomic' },
    'test.Widget': {
      type: 'object',
      properties: {
        apiVersion: str,
        kind: str,
        metadata: { ref: 'meta.ObjectMeta', default: {} },
        spec: { ref: 'test.WidgetSpec', default: {} },
        status: { ref: 'test.WidgetStatus', default: {} },
      },
    },
    'test.WidgetSpec': {
      type: 'object',
      properties: {
        replicas: int,
        paused: bool,
        mode: str,
        selector: { ref: 'meta.LabelSelector' },
        tags: { type: 'array', items: str, listType: 'set' },
        args: { type: 'array', items: str, listType: 'atomic' },
        containers: { type: 'array', items: { ref: 'test.Container', default: {} }, patchStrategy: 'merge', patchMergeKey: 'name' },
        ports: { type: 'array', items: { ref: 'test.Port', default: {} }, listType: 'map', listMapKeys: ['port', 'protocol'] },
        config: strings,
        atomicConfig: { type: 'object', additionalProperties: str, mapType: 'atomic' },
        template: { ref: 'test.Template', default: {} },
        extra: { type: 'any' },
        size: { type: 'int-or-string' },
        weights: { type: 'array', items: int, listType: 'set' },
      },
    },
    'test.Template': {
      type: 'object',
      properties: { metadata: { ref: 'meta.ObjectMeta', default: {} }, priority: int, labels: strings, nodeName: str },
    },
    'test.Container': {
      type: 'object',
      properties: {
        name: { type: 'string', default: '' },
        image: str,
        command: { type: 'array', items: str, listType: 'atomic' },
        env: { type: 'array', items: { ref: 'test.EnvVar', default: {} }, listType: 'map', listMapKeys: ['name'] },
        resources: { ref: 'test.Resources', default: {} },
      },
      required: ['name'],
    },
    'test.EnvVar': { type: 'object', properties: { name: str, value: str }, required: ['name'] },
    'test.Resources': { type: 'object', properties: { limits: strings, requests: strings } },
    'test.Port': {
      type: 'object',
      properties: { port: { type: 'integer', format: 'int32', default: 0 }, protocol: { type: 'string', default: 'TCP' }, name: str },
      required: ['port'],
    },
    'test.WidgetStatus': {
      type: 'object',
      properties: {
        replicas: int,
        phase: str,
        conditions: { type: 'array', items: { ref: 'test.Condition', default: {} }, listType: 'map', listMapKeys: ['type'] },
      },
    },
    'test.Condition': { type: 'object', properties: { type: str, status: str, reason: str }, required: ['type', 'status'] },
    'test.Config': {
      type: 'object',
      properties: { apiVersion: str, kind: str, metadata: { ref: 'meta.ObjectMeta', default: {} }, data: strings, binaryData: strings },
    },
    ...overrides,
  };
}

export function widgetTable(overrides: Record<string, SchemaNode> = {}): SchemaTable {
  return createSchemaTable(widgetDefinitions(overrides));
}

const table = widgetTable();

export const widgetSchema: FieldManagerSchema = { root: { ref: 'test.Widget' }, table };
export const configSchema: FieldManagerSchema = { root: { ref: 'test.Config' }, table };

/** A kind defaulter of the sort the API layer passes: replicas defaults to 1, like a Deployment's. */
export function widgetDefaulter(obj: Record<string, unknown>): void {
  const spec = obj.spec as Record<string, unknown> | undefined;
  if (spec && spec.replicas === undefined) spec.replicas = 1;
}
