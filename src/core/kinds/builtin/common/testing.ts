// Helpers for the kinds' tests: run a definition's strategy the way the
// generic handlers do (default → prepareForCreate → validate → canonicalize;
// default → prepareForUpdate → validateUpdate) and read the messages.

import { manualClock } from '../../../clock';
import { fieldErrorString, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, StrategyContext } from '../../types';
import { clone } from './strategy';

export function testContext(subresource = ''): StrategyContext {
  return { clock: manualClock(), subresource, dryRun: false, requestVersion: 'v1', services: {} };
}

export async function create(def: ResourceDefinition, input: KubeObject): Promise<{ obj: KubeObject; errors: string[]; raw: FieldError[] }> {
  const obj = clone(input);
  const ctx = testContext();
  def.strategy.default?.(obj, ctx);
  await def.strategy.prepareForCreate?.(obj, ctx);
  const raw = (await def.strategy.validate?.(obj, ctx)) ?? [];
  if (!raw.length) def.strategy.canonicalize?.(obj, ctx);
  return { obj, errors: raw.map(fieldErrorString), raw };
}

export async function update(
  def: ResourceDefinition,
  next: KubeObject,
  old: KubeObject,
  subresource = '',
): Promise<{ obj: KubeObject; errors: string[]; raw: FieldError[] }> {
  const obj = clone(next);
  const ctx = testContext(subresource);
  obj.metadata = { resourceVersion: '1', ...(obj.metadata ?? {}) };
  def.strategy.default?.(obj, ctx);
  await def.strategy.prepareForUpdate?.(obj, old, ctx);
  const raw = (await def.strategy.validateUpdate?.(obj, old, ctx)) ?? [];
  return { obj, errors: raw.map(fieldErrorString), raw };
}

/** A created object as stored (with the identity fields the handlers add). */
export async function stored(def: ResourceDefinition, input: KubeObject): Promise<KubeObject> {
  const r = await create(def, input);
  if (r.errors.length) throw new Error(`unexpected validation errors: ${r.errors.join('; ')}`);
  r.obj.metadata = { ...r.obj.metadata, uid: 'u-1', resourceVersion: '1', creationTimestamp: '2024-12-11T12:00:00Z' };
  return r.obj;
}
