// core/v1 endpoints: ports default to TCP, addresses must be IPs, PUT may
// create (the endpoints controller writes them that way), the ENDPOINTS column.

import { fieldErrors, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition } from '../../types';
import { isDNS1123Label, isValidPortNum } from '../../validation/names';
import { defineResource, version } from '../common/define';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, rec, str, table } from '../common/table';

const IP_RE = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*)$/;

function defaultEndpoints(ep: KubeObject): void {
  for (const subset of arr(ep.subsets).map(rec)) for (const p of arr(subset.ports).map(rec)) if (!p.protocol) p.protocol = 'TCP';
}

function validateEndpoints(ep: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arr(ep.subsets).forEach((s, i) => {
    const subset = rec(s);
    const path = `subsets[${i}]`;
    const addresses = arr(subset.addresses).length + arr(subset.notReadyAddresses).length;
    if (addresses === 0 && arr(subset.ports).length > 0) {
      errs.push(fieldErrors.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    }
    for (const field of ['addresses', 'notReadyAddresses']) {
      arr(subset[field]).forEach((a, j) => {
        const ip = str(rec(a).ip);
        if (!IP_RE.test(ip)) errs.push(fieldErrors.invalid(`${path}.${field}[${j}].ip`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
      });
    }
    const ports = arr(subset.ports).map(rec);
    ports.forEach((p, j) => {
      const pp = `${path}.ports[${j}]`;
      const name = str(p.name);
      if (ports.length > 1 && !name) errs.push(fieldErrors.required(`${pp}.name`));
      else if (name) for (const msg of isDNS1123Label(name)) errs.push(fieldErrors.invalid(`${pp}.name`, name, msg));
      const port = typeof p.port === 'number' ? p.port : 0;
      for (const msg of isValidPortNum(port)) errs.push(fieldErrors.invalid(`${pp}.port`, port, msg));
      if (!['TCP', 'UDP', 'SCTP'].includes(str(p.protocol))) errs.push(fieldErrors.notSupported(`${pp}.protocol`, p.protocol ?? '', ['SCTP', 'TCP', 'UDP']));
    });
  });
  return errs;
}

/** formatEndpoints: up to three ip:port pairs, then " + N more...". */
export function formatEndpoints(ep: KubeObject): string {
  const subsets = arr(ep.subsets).map(rec);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  const hostPort = (ip: string, port: unknown) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
  for (const ss of subsets) {
    const addresses = arr(ss.addresses).map(rec);
    const ports = arr(ss.ports).map(rec);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(hostPort(str(a.ip), port.port));
      }
    }
  }
  const joined = list.join(',');
  if (more) return `${joined} + ${count - max} more...`;
  // Subsets without addresses (only notReadyAddresses) print an empty cell; `<none>` is for no subsets.
  return joined;
}

export const ENDPOINTS_TABLE = table([col('Endpoints', 'string', 'Address:port pairs of the endpoints'), AGE_COLUMN], (o, now) => [formatEndpoints(o), age(o, now)]);

export const endpointsResource: ResourceDefinition = defineResource({
  group: '',
  plural: 'endpoints',
  kind: 'Endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  versions: [version('v1', 'io.k8s.api.core.v1.Endpoints', { table: ENDPOINTS_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    default: (obj) => defaultEndpoints(obj),
    validate: (obj) => validateEndpoints(obj),
    allowCreateOnUpdate: true,
  }),
});
