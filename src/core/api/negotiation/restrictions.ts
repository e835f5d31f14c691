// What an endpoint allows beyond plain media types (negotiation.EndpointRestrictions):
// the `as;g;v` transforms (Table, PartialObjectMetadata, aggregated
// discovery), `sv` and `stream`. A clause asking for something the endpoint
// does not allow is skipped, so the client's next alternative applies.

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface EndpointRestrictions {
  /** Whether the endpoint serves `type/subType`, transformed to `target` when one is asked for. */
  allowsMediaTypeTransform(type: string, subType: string, target: GroupVersionKind | undefined): boolean;
  /** The `sv` parameter. */
  allowsServerVersion(version: string): boolean;
  /** The `stream` parameter. */
  allowsStreamSchema(schema: string): boolean;
}

const META_GROUP = 'meta.k8s.io';

/** DefaultEndpointRestrictions: no transform at all (error responses, legacy discovery, /version…). */
export const DEFAULT_ENDPOINT_RESTRICTIONS: EndpointRestrictions = {
  allowsMediaTypeTransform: (_type, _subType, target) => target === undefined,
  allowsServerVersion: () => false,
  allowsStreamSchema: (schema) => schema === 'watch',
};

export interface ResourceEndpointOptions {
  /**
   * The resource has a table convertor. Every built-in kind and every custom
   * resource has one (the default two-column table), so this is true unless
   * an endpoint deliberately does not serve tables.
   */
  readonly tableConvertor?: boolean;
  /**
   * Media types served without a transform (RequestScope.StandardSerializers);
   * custom resources leave protobuf out. Undefined allows every listed type.
   */
  readonly standardMediaTypes?: readonly string[];
}

/**
 * RequestScope's restrictions for a resource (get, list, watch, and the
 * objects writes return): Table in meta.k8s.io v1 or v1beta1 as JSON or
 * YAML; PartialObjectMetadata and PartialObjectMetadataList in any media type;
 * `sv` only for the meta group version (v1).
 */
export function resourceEndpointRestrictions(options: ResourceEndpointOptions = {}): EndpointRestrictions {
  const tableConvertor = options.tableConvertor ?? true;
  return {
    allowsMediaTypeTransform(type, subType, target) {
      if (target === undefined) {
        if (!options.standardMediaTypes) return true;
        return options.standardMediaTypes.includes(`${type}/${subType}`);
      }
      if (target.group !== META_GROUP || (target.version !== 'v1' && target.version !== 'v1beta1')) return false;
      switch (target.kind) {
        case 'Table':
          return tableConvertor && type === 'application' && (subType === 'json' || subType === 'yaml');
        case 'PartialObjectMetadata':
        case 'PartialObjectMetadataList':
          return true;
        default:
          return false;
      }
    },
    allowsServerVersion: (version) => version === 'v1',
    allowsStreamSchema: (schema) => schema === 'watch',
  };
}

/** apidiscovery.k8s.io APIGroupDiscoveryList; 1.32 still serves v2beta1 next to v2 (removed in 1.33). */
export function isAggregatedDiscoveryGVK(target: GroupVersionKind | undefined): boolean {
  return (
    target !== undefined &&
    target.group === 'apidiscovery.k8s.io' &&
    (target.version === 'v2' || target.version === 'v2beta1') &&
    target.kind === 'APIGroupDiscoveryList'
  );
}

/**
 * DiscoveryEndpointRestrictions for /api and /apis: only the aggregated
 * discovery transform. When no clause asks for it, kube serves the legacy
 * (unaggregated) document, negotiated with DEFAULT_ENDPOINT_RESTRICTIONS.
 */
export const DISCOVERY_ENDPOINT_RESTRICTIONS: EndpointRestrictions = {
  allowsMediaTypeTransform: (_type, _subType, target) => isAggregatedDiscoveryGVK(target),
  allowsServerVersion: () => false,
  allowsStreamSchema: (schema) => schema === 'watch',
};
