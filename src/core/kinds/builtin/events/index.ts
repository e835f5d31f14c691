// events.k8s.io/v1 events: the same objects as core/v1 events (one storage),
// seen with the newer field names (regarding, note, reportingController,
// deprecated*). Creates and updates through this group get the strict
// validation of ValidateEventCreate/Update.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, Strategy } from '../../types';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta';
import { nameIsDNSSubdomain } from '../../validation/names';
import { defineResource, version } from '../common/define';
import { clone } from '../common/strategy';
import { rec, str } from '../common/table';
import { EVENT_TABLE, legacyValidateEvent, withCoreEventZeroValues } from '../core/events';

type Obj = Record<string, unknown>;

const RENAMES: [core: string, events: string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];

/** core/v1 Event → events.k8s.io/v1 Event. */
export function coreEventToEventsV1(obj: KubeObject): KubeObject {
  const out: Obj = clone(obj);
  out.apiVersion = 'events.k8s.io/v1';
  for (const [core, events] of RENAMES) {
    if (out[core] !== undefined) out[events] = out[core];
    delete out[core];
  }
  // events.k8s.io/v1's encoding: the reporting strings are omitempty here, the
  // struct values and times are written even when empty.
  for (const text of ['reportingController', 'reportingInstance']) if (out[text] === '') delete out[text];
  if (out.regarding === undefined) out.regarding = {};
  if (out.deprecatedSource === undefined) out.deprecatedSource = {};
  for (const time of ['eventTime', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp']) if (out[time] === undefined) out[time] = null;
  return out as KubeObject;
}

/** events.k8s.io/v1 Event → core/v1 Event. */
export function eventsV1ToCoreEvent(obj: KubeObject): KubeObject {
  const out: Obj = clone(obj);
  out.apiVersion = 'v1';
  for (const [core, events] of RENAMES) {
    if (out[events] !== undefined) out[core] = out[events];
    delete out[events];
  }
  return withCoreEventZeroValues(out as KubeObject);
}

const NOTE_LIMIT = 1024;

/** ValidateEventCreate for events.k8s.io requests (paths name the internal fields, as kube reports them). */
function validateEventsV1Create(ev: KubeObject): FieldError[] {
  const core = eventsV1ToCoreEvent(ev);
  const errs = legacyValidateEvent(core, 'reportingController');
  errs.push(...validateObjectMeta(ev.metadata, true, nameIsDNSSubdomain));
  errs.push(...validateSeries(core));
  if (!core.eventTime) errs.push(fieldErrors.required('eventTime'));
  if (core.type !== 'Normal' && core.type !== 'Warning') errs.push(fieldErrors.invalid('type', '', `has invalid value: ${str(core.type)}`));
  if (core.firstTimestamp) errs.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
  if (core.lastTimestamp) errs.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
  if (core.count) errs.push(fieldErrors.invalid('count', '', 'needs to be unset'));
  const source = rec(core.source);
  if (str(source.component) || str(source.host)) errs.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  if (str(core.message).length > NOTE_LIMIT) errs.push(fieldErrors.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  return errs;
}

function validateSeries(core: KubeObject): FieldError[] {
  if (core.series === undefined || core.series === null) return [];
  const series = rec(core.series);
  const errs: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2) errs.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (!series.lastObservedTime) errs.push(fieldErrors.required('series.lastObservedTime'));
  return errs;
}

function validateEventsV1Update(ev: KubeObject, old: KubeObject): FieldError[] {
  const core = eventsV1ToCoreEvent(ev);
  const oldCore = eventsV1ToCoreEvent(old);
  const errs = legacyValidateEvent(core, 'reportingController');
  errs.push(...validateObjectMetaUpdate(ev.metadata, old.metadata));
  if (JSON.stringify(core.series) !== JSON.stringify(oldCore.series)) errs.push(...validateSeries(core));
  for (const field of ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'reason', 'type', 'eventTime', 'action', 'related', 'reportingComponent', 'reportingInstance']) {
    errs.push(...validateImmutableField(core[field], oldCore[field], field === 'reportingComponent' ? 'reportingController' : field));
  }
  return errs;
}

const strategy: Strategy = {
  validate: (obj) => validateEventsV1Create(obj),
  validateUpdate: (obj, old) => validateEventsV1Update(obj, old),
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
};


export const eventsV1Resource: ResourceDefinition = defineResource({
  group: 'events.k8s.io',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  versions: [version('v1', 'io.k8s.api.events.v1.Event', { table: { columns: EVENT_TABLE.columns, cells: (o, now) => EVENT_TABLE.cells(eventsV1ToCoreEvent(o), now) } })],
  strategy,
  sharedStorage: { group: '', resource: 'events', toStorage: eventsV1ToCoreEvent, fromStorage: coreEventToEventsV1 },
  fieldSelectors: {
    'regarding.kind': (o) => str(rec(o.regarding).kind),
    'regarding.namespace': (o) => str(rec(o.regarding).namespace),
    'regarding.name': (o) => str(rec(o.regarding).name),
    'regarding.uid': (o) => str(rec(o.regarding).uid),
    'regarding.apiVersion': (o) => str(rec(o.regarding).apiVersion),
    'regarding.resourceVersion': (o) => str(rec(o.regarding).resourceVersion),
    'regarding.fieldPath': (o) => str(rec(o.regarding).fieldPath),
    reason: (o) => str(o.reason),
    reportingController: (o) => str(o.reportingController),
    type: (o) => str(o.type),
  },
});

export function eventsResources(): ResourceDefinition[] {
  return [eventsV1Resource];
}
