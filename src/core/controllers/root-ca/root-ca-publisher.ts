// kube-controller-manager's root-CA publisher: every namespace has a
// ConfigMap `kube-root-ca.crt` holding the cluster CA bundle under `ca.crt`,
// with kube's description annotation; it is created with the namespace and
// put back when someone edits or deletes it.
//
// The CA certificate comes from `options.certificate` when the host has one.
// Otherwise the publisher keeps the cluster's own: the one already published
// in kube-system (a restarted server keeps its CA), or a new self-signed one
// on a fresh cluster.

import type { KubeObject } from '../../kinds/types';
import { isNamespaceTerminating, namespacePhase } from '../runtime/namespaces';
import { isNotFound } from '../client/api-error';
import { Informer } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { NAMESPACES } from '../namespace/deps';
import { createCACertificate, looksLikeCertificate } from './ca-certificate';

export const ROOT_CA_PUBLISHER = 'root-ca-certificate-publisher-controller';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };

export interface RootCAOptions {
  /** The cluster CA bundle (PEM). Absent: keep the published one or make a self-signed CA. */
  readonly certificate?: () => Promise<string>;
}

async function clusterCA(ctx: ControllerContext, options: RootCAOptions | undefined): Promise<string> {
  if (options?.certificate) return options.certificate();
  try {
    const published = await ctx.client.get(CONFIGMAPS, 'kube-system', ROOT_CA_CONFIGMAP);
    const pemText = (published['data'] as Record<string, string> | undefined)?.['ca.crt'];
    if (looksLikeCertificate(pemText)) return pemText;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return createCACertificate({ now: ctx.clock.now() });
}

/** Whether a published ConfigMap already says what it should. */
export function upToDate(cm: KubeObject, ca: string): boolean {
  const data = (cm['data'] as Record<string, string> | undefined) ?? {};
  const keys = Object.keys(data);
  return keys.length === 1 && data['ca.crt'] === ca && !cm['binaryData'] && !!cm.metadata?.annotations?.[DESCRIPTION_ANNOTATION];
}

export function rootCAPublisher(ctx: ControllerContext, options?: RootCAOptions): Controller {
  const namespaces = ctx.informers.for(NAMESPACES);
  // Only the one ConfigMap name matters: a field-selected informer keeps no other ConfigMap in memory.
  const configMaps = new Informer(ctx.client, CONFIGMAPS, ctx.activity, { fieldSelector: `metadata.name=${ROOT_CA_CONFIGMAP}`, log: ctx.log });
  const unsubscribe: (() => void)[] = [];
  let ca: Promise<string> | undefined;

  const queue = new WorkQueue(ROOT_CA_PUBLISHER, ctx.activity, async (name) => {
    const ns = namespaces.get('', name);
    if (!ns || namespacePhase(ns) === 'Terminating') return;
    ca ??= clusterCA(ctx, options).catch((err) => {
      ca = undefined;
      throw err;
    });
    const bundle = await ca;
    const cm = configMaps.get(name, ROOT_CA_CONFIGMAP);
    try {
      if (!cm) {
        await ctx.client.create(CONFIGMAPS, name, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, namespace: name, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { 'ca.crt': bundle },
        });
        return;
      }
      if (upToDate(cm, bundle)) return;
      const fixed: KubeObject = { ...cm, data: { 'ca.crt': bundle }, metadata: { ...cm.metadata, annotations: { ...(cm.metadata?.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION } } };
      delete fixed['binaryData'];
      await ctx.client.update(CONFIGMAPS, name, fixed);
    } catch (err) {
      // A namespace gone or terminating needs nothing more; anything else (a conflict, an AlreadyExists
      // from a stale cache) is retried and the next pass sees the cache caught up.
      if (isNotFound(err) || isNamespaceTerminating(err)) return;
      throw err;
    }
  }, ctx.log);

  // List items carry no kind, so each informer has its own way to the namespace's name.
  const enqueueNamespace = (ns: KubeObject) => queue.add(ns.metadata?.name ?? '');
  const enqueueOwner = (cm: KubeObject) => queue.add(cm.metadata?.namespace ?? '');

  return {
    name: ROOT_CA_PUBLISHER,
    start() {
      configMaps.start();
      void configMaps.synced.then(() => {
        unsubscribe.push(configMaps.addHandler({ onUpdate: (_old, cm) => enqueueOwner(cm), onDelete: enqueueOwner }));
        unsubscribe.push(namespaces.addHandler({ onAdd: enqueueNamespace, onUpdate: (_old, ns) => enqueueNamespace(ns) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
      await configMaps.stop();
    },
  };
}
