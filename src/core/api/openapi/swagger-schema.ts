// Schemas of the /openapi/v2 (Swagger 2.0) document, converted from the
// OpenAPI v3 schemas src/core/schema/openapi.ts renders (one source: the
// schema tables and the CRDs' schemas).
//
// What a 1.32 server publishes differently in v2:
// - a reference is a plain `$ref` to `#/definitions/<name>` (v3 wraps it in
//   `allOf` so that siblings may stand beside it);
// - no `default` anywhere: kube prunes defaults from the v2 document (the
//   built-in builder never writes them, and CRD schemas are pruned the same
//   way before they are merged in);
// - no `oneOf` / `nullable`: IntOrString is `{type: string, format:
//   int-or-string}`, Quantity `{type: string}` (their Go types' v2 form);
// - CRD schemas go through apiextensions' v3→v2 conversion
//   (ToStructuralOpenAPIV2): value validations (allOf, anyOf, oneOf, not)
//   dropped; a nullable schema loses its type, items and properties; one with
//   x-kubernetes-preserve-unknown-fields loses items and properties (and type
//   object); an array left without items loses its type; a nullable property
//   is no longer required, and a map whose values are nullable requires
//   nothing. kubectl's v2 parser can only read what is left.

type Json = Record<string, unknown>;

export const V3_REF = '#/components/schemas/';
export const V2_REF = '#/definitions/';

/** Definitions whose v2 form is their Go type's, not a conversion of their v3 form. */
const PUBLISHED_AS_V2: Readonly<Record<string, Json>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { format: 'int-or-string', type: 'string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
};

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** `{allOf: [{$ref}]}` as the v3 renderer writes a reference, else undefined. */
function wrappedRef(schema: Json): string | undefined {
  const allOf = schema.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 1 || !isObject(allOf[0])) return undefined;
  const ref = allOf[0].$ref;
  return typeof ref === 'string' && Object.keys(allOf[0]).length === 1 ? ref : undefined;
}

/** A v3 `$ref` target as a v2 one. */
export function toV2Ref(ref: string): string {
  return ref.startsWith(V3_REF) ? V2_REF + ref.slice(V3_REF.length) : ref;
}

/** Converts one rendered v3 schema (and everything nested in it) to its v2 form. */
export function toSwaggerSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  const ref = wrappedRef(schema);
  if (ref) out.$ref = toV2Ref(ref);
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'default':
      case 'nullable':
        break;
      case 'allOf':
        if (!ref) out.allOf = (value as unknown[]).map(toSwaggerSchema);
        break;
      case '$ref':
        out.$ref = toV2Ref(value as string);
        break;
      case 'properties':
        out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toSwaggerSchema(v)]));
        break;
      case 'items':
      case 'additionalProperties':
      case 'not':
        out[key] = typeof value === 'boolean' ? value : toSwaggerSchema(value);
        break;
      case 'oneOf':
      case 'anyOf': {
        // v2 has neither; a one-of of plain types (Quantity-like) is its first type.
        const first = (value as unknown[])[0];
        if (out.type === undefined && schema.type === undefined && isObject(first) && typeof first.type === 'string') out.type = first.type;
        break;
      }
      default:
        out[key] = value;
    }
  }
  return out;
}

/** The v2 form of a built-in definition. */
export function toSwaggerDefinition(name: string, v3: unknown): unknown {
  const fixed = PUBLISHED_AS_V2[name];
  return fixed ? { ...fixed } : toSwaggerSchema(v3);
}

/**
 * apiextensions' ToStructuralOpenAPIV2 on a custom resource's rendered v3
 * schema (before toSwaggerSchema). The single-ref `allOf` the renderer writes
 * for `metadata` is a reference, not a value validation, and stays.
 */
export function crdSchemaToV2(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const s: Json = { ...schema };
  for (const key of ['allOf', 'anyOf', 'oneOf', 'not']) {
    if (key === 'allOf' && wrappedRef(s)) continue;
    delete s[key];
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (s.nullable === true) {
    delete s.type;
    delete s.nullable;
    delete s.items;
    delete s.properties;
  }
  if (preserve) {
    delete s.items;
    delete s.properties;
  }
  if (s.items === undefined && s.type === 'array') delete s.type;
  if (preserve && s.type === 'object') delete s.type;
  // Nullable children: checked before they are converted (their flag is read as the CRD wrote it).
  if (isObject(s.properties) && Array.isArray(s.required)) {
    const props = s.properties;
    const required = (s.required as string[]).filter((f) => !(isObject(props[f]) && props[f].nullable === true));
    if (required.length) s.required = required;
    else delete s.required;
  }
  if (isObject(s.additionalProperties) && s.additionalProperties.nullable === true) delete s.required;
  if (isObject(s.properties)) s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, crdSchemaToV2(v)]));
  if (isObject(s.items)) s.items = crdSchemaToV2(s.items);
  if (isObject(s.additionalProperties)) s.additionalProperties = crdSchemaToV2(s.additionalProperties);
  return s;
}
