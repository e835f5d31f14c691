// A small language for server-side apply scenarios (after smd's
// internal/fixture): a sequence of applies and updates by named managers on
// one object, with the expected object and managed fields after each step.
//
//   const s = scenario(configMapSchema);
//   s.apply('a', `data: {x: "1"}`);
//   s.update('b', `data: {x: "2"}`);
//   expect(s.conflict('a', `data: {x: "3"}`)).toBe('Apply failed with 1 conflict: …');
//   s.expectManagedFields(`
//     - manager: a
//       operation: Apply
//       fieldsV1: …`);
//
// Bodies are YAML; apiVersion, kind and metadata.name are added when
// missing. The clock advances one second per step. Managed-fields
// expectations compare fieldsV1 byte for byte (key order included) and
// compare times only when the expectation has them.

import { expect } from 'vitest';
import { parse } from 'yaml';
import { isStatusError, type StatusError } from '../../errors/status';
import type { KubeObject, ManagedFieldsEntry } from '../../kinds/types';
import { applyPatch, updateManagedFields, type FieldManagerSchema, type FieldPaths } from '../index';

export interface ScenarioConfig {
  readonly schema: FieldManagerSchema;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly ignoredFields?: FieldPaths;
  readonly defaulter?: (obj: KubeObject) => void;
}

export interface StepOptions {
  readonly force?: boolean;
  readonly subresource?: string;
  /** Take the body as is (no apiVersion/kind/name added). */
  readonly raw?: boolean;
  readonly ignoredFields?: FieldPaths;
}

const START = Date.UTC(2024, 11, 11, 12, 0, 0);

export class Scenario {
  live: KubeObject | undefined;
  private seconds = 0;

  constructor(readonly config: ScenarioConfig) {}

  /** The time of the next step (and of the last one after it ran). */
  get now(): string {
    return new Date(START + this.seconds * 1000).toISOString().replace('.000Z', 'Z');
  }

  /** Moves the clock without a write. */
  wait(seconds: number): this {
    this.seconds += seconds;
    return this;
  }

  body(yaml: string | KubeObject, raw = false): KubeObject {
    const obj = (typeof yaml === 'string' ? (parse(yaml) ?? {}) : structuredClone(yaml)) as KubeObject;
    if (raw) return obj;
    const out: KubeObject = { apiVersion: this.config.apiVersion, kind: this.config.kind, ...obj };
    const meta = { ...(obj.metadata ?? {}) };
    meta.name ??= this.config.name ?? 'test';
    if (this.config.namespace) meta.namespace ??= this.config.namespace;
    out.metadata = meta;
    return out;
  }

  private common(options: StepOptions) {
    return {
      apiVersion: this.config.apiVersion,
      kind: this.config.kind,
      subresource: options.subresource ?? '',
      now: this.now,
      schema: this.config.schema,
      ignoredFields: options.ignoredFields ?? this.config.ignoredFields,
    };
  }

  /** What the API layer does after a create: the object gets its identity. */
  private store(obj: KubeObject): void {
    const meta = { ...(obj.metadata ?? {}) };
    meta.uid ??= 'uid-1';
    meta.resourceVersion = String(this.seconds + 1);
    // The API layer sets the creation time of a new object.
    if (meta.creationTimestamp === null || meta.creationTimestamp === undefined) meta.creationTimestamp = this.now;
    this.live = { ...obj, metadata: meta };
  }

  /** Server-side apply; throws the StatusError on failure. */
  apply(manager: string, yaml: string | KubeObject, options: StepOptions = {}): this {
    this.seconds++;
    const { object } = applyPatch({
      ...this.common(options),
      live: this.live,
      applied: this.body(yaml, options.raw),
      manager,
      force: options.force ?? false,
      defaulter: this.config.defaulter,
    });
    this.store(object);
    return this;
  }

  /** An apply that must fail: returns the StatusError and leaves the object unchanged. */
  fail(manager: string, yaml: string | KubeObject, options: StepOptions = {}): StatusError {
    const before = structuredClone(this.live);
    try {
      this.apply(manager, yaml, options);
    } catch (e) {
      if (!isStatusError(e)) throw e;
      expect(this.live).toEqual(before);
      return e;
    }
    throw new Error(`apply by ${manager} succeeded`);
  }

  /** An apply that must conflict: returns the message. */
  conflict(manager: string, yaml: string | KubeObject, options: StepOptions = {}): string {
    const e = this.fail(manager, yaml, options);
    expect(e.code).toBe(409);
    expect(e.reason).toBe('Conflict');
    return e.message;
  }

  /**
   * A non-apply write (create/PUT/patch) leaving the object as given. The
   * body is the whole new object; its managedFields are the live ones
   * unless it names some (or `keepManagedFields` is false).
   */
  update(manager: string, yaml: string | KubeObject, options: StepOptions & { keepManagedFields?: boolean } = {}): this {
    this.seconds++;
    const updated = this.body(yaml, options.raw);
    const meta = updated.metadata as Record<string, unknown>;
    if (this.live) {
      const liveMeta = this.live.metadata ?? {};
      meta.uid ??= liveMeta.uid;
      meta.resourceVersion ??= liveMeta.resourceVersion;
      if (options.keepManagedFields !== false && !('managedFields' in meta) && liveMeta.managedFields) meta.managedFields = structuredClone(liveMeta.managedFields);
    }
    const object = updateManagedFields({ ...this.common(options), live: this.live, updated, manager });
    this.store(object);
    return this;
  }

  /** The live object without managedFields and the identity the scenario adds. */
  object(): KubeObject {
    const obj = structuredClone(this.live) as KubeObject;
    const meta = obj.metadata as Record<string, unknown>;
    delete meta.managedFields;
    delete meta.uid;
    delete meta.resourceVersion;
    delete meta.creationTimestamp;
    return obj;
  }

  expectObject(yaml: string): this {
    expect(this.object()).toEqual(this.body(yaml));
    return this;
  }

  /** The live value at a dotted path ("spec.containers"). */
  field(path: string): unknown {
    let v: unknown = this.live;
    for (const part of path.split('.')) v = v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[part];
    return v;
  }

  expectField(path: string, yaml: string): this {
    expect(this.field(path)).toEqual(parse(yaml));
    return this;
  }

  managedFields(): ManagedFieldsEntry[] {
    return (this.live?.metadata?.managedFields ?? []) as ManagedFieldsEntry[];
  }

  /** Compares entries in order; fieldsV1 by its JSON text (key order matters); time only when expected. */
  expectManagedFields(yaml: string): this {
    const expected = (parse(yaml) ?? []) as Record<string, unknown>[];
    const actual = this.managedFields();
    const norm = (e: Record<string, unknown>, withTime: boolean) => {
      const out: Record<string, unknown> = {
        manager: e.manager,
        operation: e.operation,
        apiVersion: e.apiVersion ?? this.config.apiVersion,
        fieldsType: e.fieldsType ?? 'FieldsV1',
        fieldsV1: JSON.stringify(e.fieldsV1 ?? {}),
      };
      if (e.subresource !== undefined) out.subresource = e.subresource;
      if (withTime) out.time = e.time ?? '(none)';
      return out;
    };
    expect(actual.map((a, i) => norm(a as Record<string, unknown>, expected[i] !== undefined && 'time' in expected[i]!))).toEqual(
      expected.map((e) => norm(e, 'time' in e)),
    );
    return this;
  }

  /** The managers of the entries, in order ("name/Operation"). */
  managers(): string[] {
    return this.managedFields().map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`);
  }
}

export function scenario(config: ScenarioConfig): Scenario {
  return new Scenario(config);
}
