// The data of a StatefulSet's or DaemonSet's ControllerRevision: a strategic
// merge patch that puts the workload's pod template back,
// {"spec":{"template":{…,"$patch":"replace"}}}, exactly as
// kube-controller-manager writes it (getPatch in both controllers). kubectl
// rollout undo sends these bytes back as a strategic merge patch, and
// rollout history decodes the template from them.
//
// kube encodes the template from its Go struct, which always carries a few
// empty fields a JSON client may leave out (the template's
// metadata.creationTimestamp: null, each container's resources: {}); they are
// added here so the bytes are those kube would write for the same template.

import { goJson, sortKeysDeep } from './go-json';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The template as Go's encoding of a v1.PodTemplateSpec shows it. */
export function goTemplate(template: unknown): Obj {
  const t = structuredClone(rec(template));
  const metadata = rec(t.metadata);
  if (!('creationTimestamp' in metadata)) metadata.creationTimestamp = null;
  t.metadata = metadata;
  const spec = rec(t.spec);
  for (const field of ['initContainers', 'containers']) {
    const list = spec[field];
    if (!Array.isArray(list)) continue;
    spec[field] = list.map((c) => {
      const container = rec(c);
      return 'resources' in container ? container : { ...container, resources: {} };
    });
  }
  t.spec = spec;
  return t;
}

export interface TemplatePatch {
  /** The patch as an object (the ControllerRevision's `data`), its keys in Go's order. */
  readonly data: Obj;
  /** Its bytes as kube writes them (what is hashed and compared). */
  readonly raw: string;
}

/** The revision data that restores `template`. */
export function templatePatch(template: unknown): TemplatePatch {
  // Keys sorted as in the bytes: clients read the stored data back in the order it was written.
  const data = sortKeysDeep({ spec: { template: { ...goTemplate(template), $patch: 'replace' } } }) as Obj;
  return { data, raw: goJson(data) };
}

/** The raw bytes of stored revision data (as kube compares Data.Raw). */
export function rawRevisionData(data: unknown): string {
  return goJson(data);
}

/** The pod template a revision's data restores (the patch's template without the directive). */
export function templateFromRevisionData(data: unknown): Obj | undefined {
  const template = rec(rec(rec(data).spec).template);
  if (Object.keys(template).length === 0) return undefined;
  const copy = structuredClone(template);
  delete copy.$patch;
  return copy;
}
