// Shared parameters of the /openapi/v2 document. kube-openapi's builder
// moves a parameter that recurs across the paths into the document's
// `parameters` under "<name>-<hash of its JSON>" and refers to it with
// `$ref: '#/parameters/<that name>'`, to keep the document small. What a 1.32
// server leaves inline, as its document shows: the `name` path parameter,
// `dryRun`, `fieldValidation`, and a body whose schema is the resource's own
// object (create / replace); the DeleteOptions and Patch bodies are shared.
//
// The hash suffixes cannot be upstream's: kube hashes each parameter's JSON
// with its description, and KubeTab publishes no descriptions. They are
// stable for a given document, which is all a client may rely on.

type Json = Record<string, unknown>;

const SHARED_BODIES = new Set(['#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch']);
const INLINE_NAMES = new Set(['dryRun', 'fieldValidation']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function shareable(p: Json): boolean {
  if (typeof p.$ref === 'string') return false;
  if (p.name === 'name' && (p.in === 'path' || p.in === 'query')) return false;
  if (INLINE_NAMES.has(String(p.name))) return false;
  if (p.in === 'body') return SHARED_BODIES.has(String((p.schema as Json | undefined)?.$ref));
  return true;
}

/** The first 6 bytes of SHA-256 of the text, URL-safe base64 (8 characters), as kube names shared parameters. */
async function shortHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest.subarray(0, 6)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

function parameterLists(paths: Record<string, Json>): Json[][] {
  const lists: Json[][] = [];
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (Array.isArray(op?.parameters)) lists.push(op.parameters as Json[]);
    }
    if (Array.isArray(item.parameters)) lists.push(item.parameters as Json[]);
  }
  return lists;
}

/**
 * Replaces every shareable parameter of `paths` (in place) by a reference and
 * returns the document's `parameters`.
 */
export async function shareParameters(paths: Record<string, Json>): Promise<Record<string, Json>> {
  const lists = parameterLists(paths);
  const byJson = new Map<string, Json>();
  for (const list of lists) for (const p of list) if (shareable(p)) byJson.set(JSON.stringify(p), p);
  const names = new Map<string, string>();
  const shared: Record<string, Json> = {};
  for (const key of [...byJson.keys()].sort()) {
    const param = byJson.get(key)!;
    const base = typeof param.name === 'string' && param.name ? param.name : 'param';
    let name = `${base}-${await shortHash(key)}`;
    for (let i = 1; shared[name]; i++) name = `${base}-${i}`;
    shared[name] = param;
    names.set(key, name);
  }
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const name = names.get(JSON.stringify(list[i]));
      if (name) list[i] = { $ref: `#/parameters/${name}` };
    }
  }
  return shared;
}
