// core/v1 events: the legacy validation of ValidateEventCreate/Update for
// requests in v1 (no metadata update checks, kube keeps it lax for old
// clients), PUT may create, the event printer (LAST SEEN first, NAME last)
// and the involvedObject/reason/source/type field selectors.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, Strategy, TableDefinition } from '../../types';
import { isDNS1123Subdomain, isQualifiedName } from '../../validation/names';
import { defineResource, version } from '../common/define';
import { ageSince } from '../common/human-duration';
import { NAME_COLUMN, col, num, rec, str, wide } from '../common/table';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

/**
 * legacyValidateEvent on the core/v1 shape. `reportingControllerField` is
 * "reportingComponent" for v1 requests and "reportingController" otherwise.
 */
export function legacyValidateEvent(ev: KubeObject, reportingControllerField: string): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = ev.metadata?.namespace ?? '';
  const involved = rec(ev.involvedObject);
  const involvedNamespace = str(involved.namespace);
  if (!ev.eventTime) {
    if (!involvedNamespace) {
      if (namespace !== '' && namespace !== 'default') errs.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    } else if (namespace !== involvedNamespace) {
      errs.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    }
  } else {
    if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') {
      errs.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    }
    const controller = str(ev.reportingComponent);
    if (!controller) errs.push(fieldErrors.required(reportingControllerField));
    for (const msg of isQualifiedName(controller)) errs.push(fieldErrors.invalid(reportingControllerField, controller, msg));
    const instance = str(ev.reportingInstance);
    if (!instance) errs.push(fieldErrors.required('reportingInstance'));
    if (instance.length > REPORTING_INSTANCE_LIMIT) errs.push(fieldErrors.invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`));
    const action = str(ev.action);
    if (!action) errs.push(fieldErrors.required('action'));
    if (action.length > ACTION_LIMIT) errs.push(fieldErrors.invalid('action', '', `can have at most ${ACTION_LIMIT} characters`));
    const reason = str(ev.reason);
    if (!reason) errs.push(fieldErrors.required('reason'));
    if (reason.length > REASON_LIMIT) errs.push(fieldErrors.invalid('reason', '', `can have at most ${REASON_LIMIT} characters`));
    if (str(ev.message).length > NOTE_LIMIT) errs.push(fieldErrors.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(fieldErrors.invalid('namespace', namespace, msg));
  return errs;
}

function eventSource(ev: KubeObject): string {
  const source = rec(ev.source);
  const component = str(source.component) || str(ev.reportingComponent);
  const instance = str(source.host) || str(ev.reportingInstance);
  return instance ? `${component}, ${instance}` : component;
}

export const EVENT_TABLE: TableDefinition = {
  columns: [
    col('Last Seen', 'string', 'Time since the event was last seen'),
    col('Type', 'string', 'Normal or Warning'),
    col('Reason', 'string', 'Short machine-readable cause'),
    col('Object', 'string', 'Kind/name of the involved object'),
    wide('Subobject', 'string', 'Field path inside the involved object'),
    wide('Source', 'string', 'Component that reported the event'),
    col('Message', 'string', 'Human-readable text of the event'),
    wide('First Seen', 'string', 'Time since the event was first seen'),
    wide('Count', 'string', 'How often the event occurred'),
    { ...NAME_COLUMN, priority: 1 },
  ],
  cells(ev, now) {
    let first = ageSince(ev.firstTimestamp as string | undefined, now);
    if (!ev.firstTimestamp) first = ageSince(ev.eventTime as string | undefined, now);
    let last = ageSince(ev.lastTimestamp as string | undefined, now);
    if (!ev.lastTimestamp) last = first;
    let count = num(ev.count);
    const series = ev.series === undefined || ev.series === null ? undefined : rec(ev.series);
    if (series) {
      last = ageSince(str(series.lastObservedTime), now);
      count = num(series.count);
    } else if (count === 0) count = 1;
    const involved = rec(ev.involvedObject);
    const kind = str(involved.kind).toLowerCase();
    const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    return [last, str(ev.type), str(ev.reason), target, str(involved.fieldPath), eventSource(ev), str(ev.message).trim(), first, count, ev.metadata?.name ?? ''];
  },
};

/**
 * The fields encoding/json writes for a core/v1 Event even when they are
 * empty: struct values (involvedObject, source), times (null when zero) and
 * the two reporting strings, which have no omitempty.
 */
export function withCoreEventZeroValues(ev: KubeObject): KubeObject {
  const o = ev as Record<string, unknown>;
  if (o.involvedObject === undefined) o.involvedObject = {};
  if (o.source === undefined) o.source = {};
  for (const time of ['firstTimestamp', 'lastTimestamp', 'eventTime']) if (o[time] === undefined) o[time] = null;
  for (const text of ['reportingComponent', 'reportingInstance']) if (o[text] === undefined) o[text] = '';
  return ev;
}

const strategy: Strategy = {
  canonicalize: (obj) => void withCoreEventZeroValues(obj),
  validate: (obj) => legacyValidateEvent(obj, 'reportingComponent'),
  validateUpdate: (obj) => legacyValidateEvent(obj, 'reportingComponent'),
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
};

export const eventsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
  shortNames: ['ev'],
  versions: [version('v1', 'io.k8s.api.core.v1.Event', { table: EVENT_TABLE })],
  strategy,
  fieldSelectors: {
    'involvedObject.kind': (o) => str(rec(o.involvedObject).kind),
    'involvedObject.namespace': (o) => str(rec(o.involvedObject).namespace),
    'involvedObject.name': (o) => str(rec(o.involvedObject).name),
    'involvedObject.uid': (o) => str(rec(o.involvedObject).uid),
    'involvedObject.apiVersion': (o) => str(rec(o.involvedObject).apiVersion),
    'involvedObject.resourceVersion': (o) => str(rec(o.involvedObject).resourceVersion),
    'involvedObject.fieldPath': (o) => str(rec(o.involvedObject).fieldPath),
    reason: (o) => str(o.reason),
    reportingComponent: (o) => str(o.reportingComponent),
    source: (o) => str(rec(o.source).component) || str(o.reportingComponent),
    type: (o) => str(o.type),
  },
});
