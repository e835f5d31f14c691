// The services table (printService): TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S),
// AGE and, with -o wide, SELECTOR. The server always builds the wide form, so
// load-balancer addresses are never shortened.

import type { KubeObject, TableDefinition } from '../../../types';
import { age, AGE_COLUMN, arr, col, formatLabels, loadBalancerIngress, rec, str, table, wide } from '../../common/table';

function loadBalancerAddresses(svc: KubeObject): string {
  return loadBalancerIngress(svc.status);
}

function externalIP(svc: KubeObject): string {
  const spec = rec(svc.spec);
  const externalIPs = arr(spec.externalIPs).map(String);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(svc);
      if (externalIPs.length) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

/** makePortString: "80/TCP", "80:30080/TCP", joined by commas. */
export function servicePorts(ports: unknown): string {
  return arr(ports)
    .map(rec)
    .map((p) => (typeof p.nodePort === 'number' && p.nodePort > 0 ? `${p.port}:${p.nodePort}/${str(p.protocol)}` : `${p.port}/${str(p.protocol)}`))
    .join(',');
}

export const SERVICE_TABLE: TableDefinition = table(
  [
    col('Type', 'string', 'How the service is exposed'),
    col('Cluster-IP'),
    col('External-IP'),
    col('Port(s)'),
    AGE_COLUMN,
    wide('Selector'),
  ],
  (svc, now) => {
    const spec = rec(svc.spec);
    const clusterIPs = arr(spec.clusterIPs).map(String);
    const ports = servicePorts(spec.ports);
    return [
      str(spec.type),
      clusterIPs.length ? clusterIPs[0] : '<none>',
      externalIP(svc),
      ports || '<none>',
      age(svc, now),
      formatLabels(spec.selector as Record<string, string> | undefined),
    ];
  },
);
