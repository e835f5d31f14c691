// flowcontrol.apiserver.k8s.io/v1 flowschemas and prioritylevelconfigurations
// (API Priority and Fairness): defaults of SetDefaults_FlowSchemaSpec and the
// limited/exempt priority levels, and their printer columns.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { nameIsPathSegment } from '../../validation/names';
import { defineResource, statusSubresource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, num, rec, str, table } from '../common/table';
import { validateEnum } from '../core/pod-spec/validation';

const GROUP = 'flowcontrol.apiserver.k8s.io';

function defaultFlowSchema(fs: KubeObject): void {
  const spec = rec(fs.spec);
  fs.spec = spec;
  if (!spec.matchingPrecedence) spec.matchingPrecedence = 1000;
}

function validateFlowSchema(fs: KubeObject): FieldError[] {
  const spec = rec(fs.spec);
  const errs: FieldError[] = [];
  const precedence = num(spec.matchingPrecedence);
  if (precedence <= 0) errs.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > 10000) errs.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, 'must not be greater than 10000'));
  if (!str(rec(spec.priorityLevelConfiguration).name)) errs.push(fieldErrors.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  if (spec.distinguisherMethod !== undefined && spec.distinguisherMethod !== null) {
    errs.push(...validateEnum(rec(spec.distinguisherMethod).type, 'spec.distinguisherMethod.type', ['ByNamespace', 'ByUser']));
  }
  arr(spec.rules).forEach((r, i) => {
    const rule = rec(r);
    if (arr(rule.subjects).length === 0) errs.push(fieldErrors.required(`spec.rules[${i}].subjects`, 'subjects must contain at least one value'));
    if (arr(rule.resourceRules).length === 0 && arr(rule.nonResourceRules).length === 0) {
      errs.push(fieldErrors.required(`spec.rules[${i}]`, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
  });
  return errs;
}

function defaultPLC(plc: KubeObject): void {
  const spec = rec(plc.spec);
  plc.spec = spec;
  if (spec.limited !== undefined && spec.limited !== null) {
    const limited = rec(spec.limited);
    if (limited.nominalConcurrencyShares === undefined || limited.nominalConcurrencyShares === null) limited.nominalConcurrencyShares = 30;
    if (limited.lendablePercent === undefined || limited.lendablePercent === null) limited.lendablePercent = 0;
    const lr = rec(limited.limitResponse);
    limited.limitResponse = lr;
    if (lr.queuing !== undefined && lr.queuing !== null) {
      const q = rec(lr.queuing);
      if (!q.queues) q.queues = 64;
      if (!q.handSize) q.handSize = 8;
      if (!q.queueLengthLimit) q.queueLengthLimit = 50;
    }
  }
  if (spec.exempt !== undefined && spec.exempt !== null) {
    const exempt = rec(spec.exempt);
    if (exempt.nominalConcurrencyShares === undefined || exempt.nominalConcurrencyShares === null) exempt.nominalConcurrencyShares = 0;
    if (exempt.lendablePercent === undefined || exempt.lendablePercent === null) exempt.lendablePercent = 0;
  }
}

function validatePLC(plc: KubeObject): FieldError[] {
  const spec = rec(plc.spec);
  const errs: FieldError[] = [];
  errs.push(...validateEnum(spec.type, 'spec.type', ['Exempt', 'Limited']));
  const has = (v: unknown) => v !== undefined && v !== null;
  if (spec.type === 'Limited') {
    if (!has(spec.limited)) errs.push(fieldErrors.required('spec.limited', 'must not be empty when type is Limited'));
    if (has(spec.exempt)) errs.push(fieldErrors.forbidden('spec.exempt', 'must be nil if the type is Limited'));
    const limited = rec(spec.limited);
    const lp = num(limited.lendablePercent);
    if (lp < 0 || lp > 100) errs.push(fieldErrors.invalid('spec.limited.lendablePercent', lp, 'must be between 0 and 100, inclusive'));
    const lr = rec(limited.limitResponse);
    errs.push(...validateEnum(lr.type, 'spec.limited.limitResponse.type', ['Queue', 'Reject']));
    if (lr.type === 'Queue' && !has(lr.queuing)) errs.push(fieldErrors.required('spec.limited.limitResponse.queuing', 'must not be empty if the type is Queue'));
    if (lr.type === 'Reject' && has(lr.queuing)) errs.push(fieldErrors.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
    if (has(lr.queuing)) {
      const q = rec(lr.queuing);
      if (num(q.handSize) > num(q.queues)) errs.push(fieldErrors.invalid('spec.limited.limitResponse.queuing.handSize', num(q.handSize), `should not be greater than queues (${num(q.queues)})`));
    }
  } else if (spec.type === 'Exempt') {
    if (has(spec.limited)) errs.push(fieldErrors.forbidden('spec.limited', 'must be nil if the type is not Limited'));
  }
  return errs;
}

export const FLOW_SCHEMA_TABLE = table(
  [
    col('PriorityLevel', 'string', 'Priority level the matched requests go to'),
    col('MatchingPrecedence', 'string', 'Order among flow schemas (lower first)'),
    col('DistinguisherMethod', 'string', 'How flows are told apart'),
    AGE_COLUMN,
    col('MissingPL', 'string', 'Whether the priority level is missing'),
  ],
  (fs, now) => {
    const spec = rec(fs.spec);
    const dm = spec.distinguisherMethod === undefined || spec.distinguisherMethod === null ? '<none>' : str(rec(spec.distinguisherMethod).type);
    const dangling = arr(rec(fs.status).conditions).map(rec).find((c) => c.type === 'Dangling');
    return [str(rec(spec.priorityLevelConfiguration).name), num(spec.matchingPrecedence), dm, age(fs, now), dangling ? str(dangling.status) : '?'];
  },
);

export const PRIORITY_LEVEL_TABLE = table(
  [
    col('Type', 'string', 'Exempt or Limited'),
    col('NominalConcurrencyShares', 'string', 'Share of the server concurrency'),
    col('Queues', 'string', 'Number of queues'),
    col('HandSize', 'string', 'Shuffle-sharding hand size'),
    col('QueueLengthLimit', 'string', 'Longest allowed queue'),
    AGE_COLUMN,
  ],
  (plc, now) => {
    const spec = rec(plc.spec);
    let ncs: unknown = '<none>';
    let queues: unknown = '<none>';
    let handSize: unknown = '<none>';
    let queueLengthLimit: unknown = '<none>';
    if (spec.limited !== undefined && spec.limited !== null) {
      const limited = rec(spec.limited);
      ncs = num(limited.nominalConcurrencyShares);
      const q = rec(limited.limitResponse).queuing;
      if (q !== undefined && q !== null) {
        queues = num(rec(q).queues);
        handSize = num(rec(q).handSize);
        queueLengthLimit = num(rec(q).queueLengthLimit);
      }
    }
    return [str(spec.type), ncs, queues, handSize, queueLengthLimit, age(plc, now)];
  },
);

export const flowSchemasResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'flowschemas',
  kind: 'FlowSchema',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.flowcontrol.v1.FlowSchema', { table: FLOW_SCHEMA_TABLE })],
  subresources: [statusSubresource('FlowSchema')],
  strategy: standardStrategy({
    namespaced: false,
    nameRule: nameIsPathSegment,
    statusFields: ['status'],
    initialStatus: () => ({}),
    generationFields: ['spec'],
    default: (o) => defaultFlowSchema(o),
    validate: (o) => validateFlowSchema(o),
  }),
});

export const priorityLevelConfigurationsResource: ResourceDefinition = defineResource({
  group: GROUP,
  plural: 'prioritylevelconfigurations',
  kind: 'PriorityLevelConfiguration',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration', { table: PRIORITY_LEVEL_TABLE })],
  subresources: [statusSubresource('PriorityLevelConfiguration')],
  strategy: standardStrategy({
    namespaced: false,
    nameRule: nameIsPathSegment,
    statusFields: ['status'],
    initialStatus: () => ({}),
    generationFields: ['spec'],
    default: (o) => defaultPLC(o),
    validate: (o) => validatePLC(o),
  }),
});


export function flowControlResources(): ResourceDefinition[] {
  return [flowSchemasResource, priorityLevelConfigurationsResource];
}
