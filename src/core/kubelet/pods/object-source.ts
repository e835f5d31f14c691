// How the kubelet reads the objects its pods reference (ConfigMaps,
// Secrets, Services, PersistentVolumeClaims) and asks for service-account
// tokens: through the API, as system:node:<name>, which the Node authorizer
// allows for objects of pods bound to the node. A missing object is
// `undefined`; any other failure throws (the caller retries).

import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../../controllers/client/api-client';
import { isNotFound } from '../../controllers/client/api-error';
import { resourcePath, type GroupVersionResource } from '../../controllers/client/resource-path';

export const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };
export const SECRETS: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };
export const SERVICES: GroupVersionResource = { group: '', version: 'v1', resource: 'services' };
export const PVCS: GroupVersionResource = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
export const SERVICE_ACCOUNTS: GroupVersionResource = { group: '', version: 'v1', resource: 'serviceaccounts' };

export class ObjectSource {
  constructor(private readonly client: ApiClient) {}

  async get(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      return await this.client.get(gvr, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async services(namespace: string): Promise<KubeObject[]> {
    return (await this.client.list(SERVICES, namespace)).items;
  }

  /** A bound service-account token for the pod (TokenRequest, as the kubelet's token manager asks). */
  async serviceAccountToken(pod: KubeObject, serviceAccount: string, expirationSeconds: number, audience: string | undefined): Promise<string> {
    const body: KubeObject = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: serviceAccount },
      spec: {
        ...(audience ? { audiences: [audience] } : {}),
        expirationSeconds,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: pod.metadata?.name, uid: pod.metadata?.uid },
      },
    };
    const path = resourcePath(SERVICE_ACCOUNTS, { namespace: pod.metadata?.namespace ?? 'default', name: serviceAccount, subresource: 'token' });
    const res = await this.client.call<KubeObject>('POST', path, body);
    return String((res.status as { token?: string } | undefined)?.token ?? '');
  }
}
