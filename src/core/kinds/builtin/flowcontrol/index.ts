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
    col('PriorityLevel', 'string', "`priorityLevelConfiguration` should reference a PriorityLevelConfiguration in the cluster. If the reference cannot be resolved, the FlowSchema will be ignored and marked as invalid in its status. Required."),
    col('MatchingPrecedence', 'string', '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.'),
    col('DistinguisherMethod', 'string', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.'),
    AGE_COLUMN,
    col('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
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
    col('Type', 'string', '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.'),
    col('NominalConcurrencyShares', 'string', '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)'),
    col('Queues', 'string', '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.'),
    col('HandSize', 'string', '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request\'s flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.'),
    col('QueueLengthLimit', 'string', '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.'),
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
