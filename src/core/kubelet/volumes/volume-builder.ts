// The kubelet's volume manager, for the volume types a simulated node can
// serve: the content of each of a pod's volumes (ConfigMap, Secret,
// downwardAPI, projected with its service-account token and
// kube-root-ca.crt, emptyDir, hostPath, PersistentVolumeClaim) and the
// errors it reports: a missing ConfigMap or Secret fails the mount at once
// (FailedMount "MountVolume.SetUp failed for volume …"), a claim that does
// not exist or is not bound keeps the pod waiting (the kubelet's populator
// refuses it and, after its 2-minute wait, says so in a FailedMount event).
// Content is refreshed on every pod sync, as the kubelet's resync rewrites
// projected files when their sources change.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../../kinds/builtin/common/table';
import { CONFIGMAPS, PVCS, SECRETS, type ObjectSource } from '../pods/object-source';
import { fieldRefValue, resourceFieldRefValue, type PodFacts } from '../pods/downward-api';
import { secretValue } from '../pods/env';
import { VolumeFiles } from './volume-files';

/** A mount that cannot be set up: the volume's name and the kubelet's message. */
export class MountError extends Error {
  constructor(
    readonly volume: string,
    message: string,
    /** Waiting (an unbound claim), not a failure of its own: reported only after the kubelet's wait. */
    readonly waiting = false,
  ) {
    super(message);
  }
}

/** Volumes that outlive a pod's containers (emptyDir) or the pod (hostPath, claims) on one node. */
export class NodeVolumes {
  readonly hostPaths = new Map<string, VolumeFiles>();
  readonly claims = new Map<string, VolumeFiles>();
}

function keyToPath(items: unknown[], data: Record<string, string>, optional: boolean, what: string): [string, string][] {
  if (items.length === 0) return Object.entries(data);
  const out: [string, string][] = [];
  for (const item of items.map(rec)) {
    const key = str(item.key);
    if (!(key in data)) {
      if (optional) continue;
      throw new Error(`${what} references non-existent config key: ${key}`);
    }
    out.push([str(item.path), data[key]!]);
  }
  return out;
}

export interface VolumeContext {
  readonly pod: KubeObject;
  readonly source: ObjectSource;
  readonly facts: PodFacts;
  readonly node: NodeVolumes;
  /** The pod's volumes from earlier syncs (emptyDirs keep their files). */
  readonly existing: Map<string, VolumeFiles>;
  /** A refresh: service-account tokens already written stay (the kubelet renews them at 80% of their life). */
  readonly keepTokens?: boolean;
}

async function configMapFiles(ctx: VolumeContext, spec: Record<string, unknown>): Promise<[string, string][] | undefined> {
  const ns = ctx.pod.metadata?.namespace ?? 'default';
  const name = str(spec.name);
  const cm = await ctx.source.get(CONFIGMAPS, ns, name);
  if (!cm) {
    if (spec.optional === true) return [];
    throw new Error(`configmap ${JSON.stringify(name)} not found`);
  }
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec(cm.data))) data[k] = String(v);
  for (const [k, v] of Object.entries(rec(cm.binaryData))) data[k] = secretValue(v);
  return keyToPath(arr(spec.items), data, spec.optional === true, 'configMap');
}

async function secretFiles(ctx: VolumeContext, name: string, spec: Record<string, unknown>): Promise<[string, string][]> {
  const ns = ctx.pod.metadata?.namespace ?? 'default';
  const secret = await ctx.source.get(SECRETS, ns, name);
  if (!secret) {
    if (spec.optional === true) return [];
    throw new Error(`secret ${JSON.stringify(name)} not found`);
  }
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec(secret.data))) data[k] = secretValue(v);
  return keyToPath(arr(spec.items), data, spec.optional === true, 'secret');
}

function downwardFiles(ctx: VolumeContext, items: unknown[]): [string, string][] {
  return items.map(rec).map((item) => {
    if (item.fieldRef) return [str(item.path), fieldRefValue(ctx.pod, str(rec(item.fieldRef).fieldPath), ctx.facts, true)] as [string, string];
    const ref = rec(item.resourceFieldRef);
    return [str(item.path), resourceFieldRefValue(ctx.pod, str(ref.containerName), ref, ctx.facts)] as [string, string];
  });
}

async function projectedFiles(ctx: VolumeContext, spec: Record<string, unknown>, previous: VolumeFiles | undefined): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const s of arr(spec.sources).map(rec)) {
    if (s.configMap) out.push(...((await configMapFiles(ctx, rec(s.configMap))) ?? []));
    else if (s.secret) out.push(...(await secretFiles(ctx, str(rec(s.secret).name), rec(s.secret))));
    else if (s.downwardAPI) out.push(...downwardFiles(ctx, arr(rec(s.downwardAPI).items)));
    else if (s.serviceAccountToken) {
      const t = rec(s.serviceAccountToken);
      const kept = ctx.keepTokens ? previous?.read(str(t.path)) : undefined;
      if (kept !== undefined) {
        out.push([str(t.path), kept]);
        continue;
      }
      const sa = str(rec(ctx.pod.spec).serviceAccountName) || 'default';
      const expiration = typeof t.expirationSeconds === 'number' ? t.expirationSeconds : 3600;
      const token = await ctx.source.serviceAccountToken(ctx.pod, sa, expiration, str(t.audience) || undefined);
      out.push([str(t.path), token]);
    }
  }
  return out;
}

async function claimFiles(ctx: VolumeContext, volumeName: string, claimName: string, allVolumes: string[]): Promise<VolumeFiles> {
  const ns = ctx.pod.metadata?.namespace ?? 'default';
  const pvc = await ctx.source.get(PVCS, ns, claimName);
  const fail = (detail: string) =>
    new MountError(volumeName, `Unable to attach or mount volumes: unmounted volumes=[${volumeName}], unattached volumes=[${allVolumes.join(' ')}], failed to process volumes=[${volumeName}]: error processing PVC ${ns}/${claimName}: ${detail}`, true);
  if (!pvc) throw fail(`failed to fetch PVC from API server: persistentvolumeclaims ${JSON.stringify(claimName)} not found`);
  const phase = str(rec(pvc.status).phase);
  const volume = str(rec(pvc.spec).volumeName);
  if (phase !== 'Bound' || !volume) throw fail(`PVC ${ns}/${claimName} has non-bound phase (${JSON.stringify(phase)}) or empty pvc.Spec.VolumeName (${JSON.stringify(volume)})`);
  let files = ctx.node.claims.get(volume);
  if (!files) {
    files = new VolumeFiles(false);
    ctx.node.claims.set(volume, files);
  }
  return files;
}

/** Sets up (or refreshes) every volume of the pod; throws MountError for the first that cannot be. */
export async function setUpVolumes(ctx: VolumeContext): Promise<Map<string, VolumeFiles>> {
  const volumes = arr(rec(ctx.pod.spec).volumes).map(rec);
  const names = volumes.map((v) => str(v.name));
  const out = new Map<string, VolumeFiles>();
  for (const v of volumes) {
    const name = str(v.name);
    const previous = ctx.existing.get(name);
    const fill = (entries: [string, string][]) => {
      const files = previous ?? new VolumeFiles(true);
      files.replace(entries);
      out.set(name, files);
    };
    try {
      if (v.configMap) fill((await configMapFiles(ctx, rec(v.configMap))) ?? []);
      else if (v.secret) fill(await secretFiles(ctx, str(rec(v.secret).secretName), rec(v.secret)));
      else if (v.downwardAPI) fill(downwardFiles(ctx, arr(rec(v.downwardAPI).items)));
      else if (v.projected) fill(await projectedFiles(ctx, rec(v.projected), previous));
      else if (v.hostPath) {
        const path = str(rec(v.hostPath).path);
        let files = ctx.node.hostPaths.get(path);
        if (!files) {
          files = new VolumeFiles(false);
          ctx.node.hostPaths.set(path, files);
        }
        out.set(name, files);
      } else if (v.persistentVolumeClaim) {
        out.set(name, await claimFiles(ctx, name, str(rec(v.persistentVolumeClaim).claimName), names));
      } else {
        // emptyDir, and the volume types a simulated node has no backend for: an empty writable directory of the pod.
        out.set(name, previous ?? new VolumeFiles(false));
      }
    } catch (err) {
      if (err instanceof MountError) throw err;
      throw new MountError(name, `MountVolume.SetUp failed for volume ${JSON.stringify(name)} : ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}
