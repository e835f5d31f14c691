// The output formats a handler can produce and how they are encoded. The
// Accept header parsing itself lives in ./negotiation; this module maps its
// result onto what the handlers need.

import { stringify as yamlStringify } from 'yaml';
import { errors } from '../errors/status';

export type OutputAs = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList' | 'APIGroupDiscoveryList';

export interface OutputFormat {
  /** The Content-Type to send. */
  readonly contentType: string;
  readonly encoding: 'json' | 'yaml';
  /** A transformed representation the client asked for. */
  readonly as?: OutputAs;
  /** Version of the transformed representation (v1 / v1beta1 for Table, v2 / v2beta1 for discovery). */
  readonly asVersion?: string;
  readonly pretty: boolean;
}

export interface OutputOffers {
  /** Table and PartialObjectMetadata (resource GETs). */
  readonly transforms?: boolean;
  /** Aggregated discovery (/api, /apis). */
  readonly aggregatedDiscovery?: boolean;
  /** Watch streams answer application/json;stream=watch. */
  readonly watch?: boolean;
}

/** The media types kube-apiserver lists in its 406 message. */
export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(',').forEach((clause, order) => {
    const [typePart, ...paramParts] = clause.split(';');
    const full = (typePart ?? '').trim().toLowerCase();
    if (!full) return;
    const slash = full.indexOf('/');
    const type = slash === -1 ? full : full.slice(0, slash);
    const subtype = slash === -1 ? '*' : full.slice(slash + 1);
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq === -1) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (key === 'q') q = Number(value);
      else params[key] = value;
    }
    if (q > 0) ranges.push({ type, subtype, params, q, order });
  });
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

function matches(range: MediaRange, type: string, subtype: string): boolean {
  return (range.type === '*' || range.type === type) && (range.subtype === '*' || range.subtype === subtype);
}

/**
 * Chooses the response format from Accept, as kube-apiserver's negotiation
 * does: the first acceptable clause in preference order wins; clauses for
 * media types KubeTab does not produce (protobuf, cbor while its gate is
 * off) are skipped so the client's fallback applies; nothing acceptable is 406.
 */
export function negotiateOutput(accept: string | null, pretty: boolean, offers: OutputOffers = {}, cbor = false): OutputFormat {
  const ranges = parseAccept(accept && accept.trim() ? accept : '*/*');
  for (const range of ranges) {
    const asParam = range.params['as'];
    if (asParam) {
      const g = range.params['g'];
      const v = range.params['v'];
      if (!(range.type === 'application' && range.subtype === 'json')) continue;
      if (offers.transforms && g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1')) {
        if (asParam === 'Table' || asParam === 'PartialObjectMetadata' || asParam === 'PartialObjectMetadataList') {
          return { contentType: `application/json;as=${asParam};g=meta.k8s.io;v=${v}`, encoding: 'json', as: asParam, asVersion: v, pretty };
        }
      }
      if (offers.aggregatedDiscovery && g === 'apidiscovery.k8s.io' && asParam === 'APIGroupDiscoveryList' && (v === 'v2' || v === 'v2beta1')) {
        return { contentType: `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`, encoding: 'json', as: 'APIGroupDiscoveryList', asVersion: v, pretty };
      }
      continue;
    }
    if (matches(range, 'application', 'json')) {
      return { contentType: offers.watch ? 'application/json' : 'application/json', encoding: 'json', pretty };
    }
    if (matches(range, 'application', 'yaml')) {
      return { contentType: 'application/yaml', encoding: 'yaml', pretty };
    }
    void cbor;
  }
  throw errors.notAcceptable(SERVED_MEDIA_TYPES);
}

/** JSON as Go's encoding/json writes it (compact), or indented for ?pretty. */
export function encodeJson(value: unknown, pretty: boolean): string {
  return pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value) + '\n';
}

/** YAML as sigs.k8s.io/yaml writes it: via a JSON map, so keys come out sorted. */
export function encodeYaml(value: unknown): string {
  return yamlStringify(value, { sortMapEntries: true, lineWidth: 0, aliasDuplicateObjects: false });
}

export function encodeOutput(value: unknown, format: OutputFormat): string {
  return format.encoding === 'yaml' ? encodeYaml(value) : encodeJson(value, format.pretty);
}

export function isPretty(query: URLSearchParams): boolean {
  const value = query.get('pretty');
  return value === 'true' || value === '1';
}
