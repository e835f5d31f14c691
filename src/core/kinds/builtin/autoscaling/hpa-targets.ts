// The TARGETS cell of the HPA table (formatHPAMetrics in 1.32's printers):
// one entry per spec metric, read against the status metric at the same
// index, "<unknown>" until the controller reports, at most two entries and
// then " + N more...". Resource entries carry the resource name
// (kubernetes#122804); ContainerResource entries name the resource only.

import type { KubeObject } from '../../types';
import { arr, rec, str } from '../common/table';

const MAX = 2;

/** resource.Quantity's String() on a pointer: "<nil>" when absent. */
function quantity(v: unknown): string {
  return v === undefined || v === null ? '<nil>' : String(v);
}

const present = (v: unknown) => v !== undefined && v !== null;

/** A status metric's source when the status at this index has it (statuses[i].X != nil). */
function statusSource(statuses: Record<string, unknown>[], i: number, field: string): Record<string, unknown> | undefined {
  const s = statuses[i];
  return s && present(s[field]) ? rec(s[field]) : undefined;
}

function resourceEntry(src: Record<string, unknown>, status: Record<string, unknown> | undefined): string {
  const target = rec(src.target);
  const name = str(src.name);
  const current = rec(status?.current);
  if (present(target.averageValue)) {
    return `${name}: ${status ? quantity(current.averageValue) : '<unknown>'}/${quantity(target.averageValue)}`;
  }
  const now = status && present(current.averageUtilization) ? `${String(current.averageUtilization)}%` : '<unknown>';
  const want = present(target.averageUtilization) ? `${String(target.averageUtilization)}%` : '<auto>';
  return `${name}: ${now}/${want}`;
}

function valueEntry(src: Record<string, unknown>, status: Record<string, unknown> | undefined): string {
  const target = rec(src.target);
  const current = rec(status?.current);
  if (present(target.averageValue)) {
    const now = status && present(current.averageValue) ? quantity(current.averageValue) : '<unknown>';
    return `${now}/${quantity(target.averageValue)} (avg)`;
  }
  return `${status ? quantity(current.value) : '<unknown>'}/${quantity(target.value)}`;
}

export function hpaTargets(hpa: KubeObject): string {
  const specs = arr(rec(hpa.spec).metrics).map(rec);
  if (specs.length === 0) return '<none>';
  const statuses = arr(rec(hpa.status).currentMetrics).map(rec);
  const list = specs.map((spec, i) => {
    switch (spec.type) {
      case 'External':
        return valueEntry(rec(spec.external), statusSource(statuses, i, 'external'));
      case 'Object':
        return valueEntry(rec(spec.object), statusSource(statuses, i, 'object'));
      case 'Pods': {
        const status = statusSource(statuses, i, 'pods');
        return `${status ? quantity(rec(status.current).averageValue) : '<unknown>'}/${quantity(rec(rec(spec.pods).target).averageValue)}`;
      }
      case 'Resource':
        return resourceEntry(rec(spec.resource), statusSource(statuses, i, 'resource'));
      case 'ContainerResource':
        return resourceEntry(rec(spec.containerResource), statusSource(statuses, i, 'containerResource'));
      default:
        return '<unknown type>';
    }
  });
  if (list.length > MAX) return `${list.slice(0, MAX).join(', ')} + ${list.length - MAX} more...`;
  return list.join(', ');
}
