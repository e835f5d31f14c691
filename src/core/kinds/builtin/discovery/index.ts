// discovery.k8s.io/v1 endpointslices: ports named "" and TCP by default, the
// address type fixed once set, generation tracking, and the printer's
// ADDRESSTYPE / PORTS / ENDPOINTS.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { isDNS1123Label, isValidPortNum } from '../../validation/names';
import { validateImmutableField } from '../../validation/object-meta';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table } from '../common/table';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

function defaultEndpointSlice(es: KubeObject): void {
  for (const p of arr(es.ports).map(rec)) {
    if (p.name === undefined || p.name === null) p.name = '';
    if (p.protocol === undefined || p.protocol === null) p.protocol = 'TCP';
  }
}

function validateEndpointSlice(es: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!es.addressType) errs.push(fieldErrors.required('addressType'));
  else if (!ADDRESS_TYPES.includes(str(es.addressType))) errs.push(fieldErrors.notSupported('addressType', es.addressType, ADDRESS_TYPES));
  const endpoints = arr(es.endpoints).map(rec);
  if (endpoints.length > 1000) errs.push(fieldErrors.tooMany('endpoints', endpoints.length, 1000));
  endpoints.forEach((ep, i) => {
    const addresses = arr(ep.addresses);
    if (addresses.length === 0) errs.push(fieldErrors.required(`endpoints[${i}].addresses`, 'must contain at least 1 address'));
    else if (addresses.length > 100) errs.push(fieldErrors.tooMany(`endpoints[${i}].addresses`, addresses.length, 100));
  });
  const ports = arr(es.ports).map(rec);
  if (ports.length > 100) errs.push(fieldErrors.tooMany('ports', ports.length, 100));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const name = str(p.name);
    if (name) for (const msg of isDNS1123Label(name)) errs.push(fieldErrors.invalid(`ports[${i}].name`, name, msg));
    if (names.has(name)) errs.push(fieldErrors.duplicate(`ports[${i}].name`, name));
    names.add(name);
    if (typeof p.port === 'number') for (const msg of isValidPortNum(p.port)) errs.push(fieldErrors.invalid(`ports[${i}].port`, p.port, msg));
    if (!['TCP', 'UDP', 'SCTP'].includes(str(p.protocol))) errs.push(fieldErrors.notSupported(`ports[${i}].protocol`, p.protocol ?? '', ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const joined = list.join(',');
  if (more) return `${joined} + ${count - max} more...`;
  return joined || '<unset>';
}

function portsCell(es: KubeObject): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const p of arr(es.ports).map(rec)) {
    if (list.length < 3) list.push(typeof p.port === 'number' ? String(p.port) : p.name !== undefined && p.name !== null ? str(p.name) : '*');
    else if (list.length === 3) more = true;
    count++;
  }
  return listWithMore(list, more, count, 3);
}

function endpointsCell(es: KubeObject): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ep of arr(es.endpoints).map(rec)) {
    for (const a of arr(ep.addresses)) {
      if (list.length < 3) list.push(String(a));
      else if (list.length === 3) more = true;
      count++;
    }
  }
  return listWithMore(list, more, count, 3);
}

export const ENDPOINT_SLICE_TABLE = table(
  [
    col('AddressType', 'string', 'IPv4, IPv6 or FQDN'),
    col('Ports', 'string', 'Ports of the endpoints'),
    col('Endpoints', 'string', 'Addresses of the endpoints'),
    AGE_COLUMN,
  ],
  (es, now) => [str(es.addressType), portsCell(es), endpointsCell(es), age(es, now)],
);

export const endpointSlicesResource: ResourceDefinition = defineResource({
  group: 'discovery.k8s.io',
  plural: 'endpointslices',
  kind: 'EndpointSlice',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.discovery.v1.EndpointSlice', { table: ENDPOINT_SLICE_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    generationFields: ['addressType', 'endpoints', 'ports'],
    default: (o) => defaultEndpointSlice(o),
    validate: (o) => validateEndpointSlice(o),
    validateUpdate: (o, old) => validateImmutableField(o.addressType, old.addressType, 'addressType'),
  }),
});

export function discoveryResources(): ResourceDefinition[] {
  return [endpointSlicesResource];
}
