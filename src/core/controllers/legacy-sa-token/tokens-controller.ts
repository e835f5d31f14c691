// kube-controller-manager's service-account token controller (serviceaccount-
// token-controller, the "tokens controller"): a Secret of type
// kubernetes.io/service-account-token naming a service account in the
// kubernetes.io/service-account.name annotation is filled in — `token` (a
// legacy token signed with the service-account key, which the authenticator
// accepts while the Secret holds it), `ca.crt` (the cluster CA), `namespace`
// — and annotated with the account's UID. A token Secret whose account does
// not exist (or has another UID) is deleted, and so are an account's token
// Secrets when it is deleted. The controller acts with kube-controller-
// manager's own credentials, as kube's does; without a signing key it does
// not start (kube-controller-manager without --service-account-private-key-file).

import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { rec, str } from '../job/json';
import { splitKey } from '../workloads/objects';
import { ROOT_CA_CONFIGMAP, type RootCAOptions } from '../root-ca/root-ca-publisher';
import {
  ANN_SERVICE_ACCOUNT_NAME,
  ANN_SERVICE_ACCOUNT_UID,
  CONFIGMAPS,
  KEY_CA,
  KEY_NAMESPACE,
  KEY_TOKEN,
  SECRETS,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SERVICE_ACCOUNTS,
} from './token-names';

export const SERVICE_ACCOUNT_TOKEN_CONTROLLER = 'serviceaccount-token-controller';

/** Signs the legacy token of a Secret (the server holds the service-account key). */
export type LegacyTokenIssuer = (o: { namespace: string; serviceAccount: { name: string; uid: string }; secretName: string }) => Promise<string>;

export interface TokensControllerOptions {
  readonly issue?: LegacyTokenIssuer;
  readonly rootCA?: RootCAOptions;
}

const dataOf = (secret: KubeObject): Record<string, string> => (rec(secret['data']) as Record<string, string>) ?? {};
const decode = (b64: string | undefined): string => {
  try {
    return b64 ? atob(b64) : '';
  } catch {
    return '';
  }
};

export function serviceAccountTokenController(ctx: ControllerContext, options: TokensControllerOptions = {}): Controller {
  const issue = options.issue;
  if (!issue) {
    return { name: SERVICE_ACCOUNT_TOKEN_CONTROLLER, start: () => ctx.log('controller is disabled because there is no private key'), stop: async () => undefined };
  }
  const secrets = ctx.informers.for(SECRETS);
  const accounts = ctx.informers.for(SERVICE_ACCOUNTS);
  const unsubscribe: (() => void)[] = [];
  let rootCA: string | undefined;

  /** The CA bundle for ca.crt: the host's, else the one the root-CA publisher put in kube-system. */
  const clusterCA = async (): Promise<string | undefined> => {
    if (rootCA) return rootCA;
    if (options.rootCA?.certificate) return (rootCA = await options.rootCA.certificate());
    try {
      const cm = await ctx.client.get(CONFIGMAPS, 'kube-system', ROOT_CA_CONFIGMAP);
      const ca = str(rec(cm['data'])['ca.crt']);
      if (ca) rootCA = ca;
      return rootCA;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };

  /** The account a token Secret names, from the cache or the server; undefined when it is gone or another one (UID). */
  const accountOf = async (secret: KubeObject): Promise<KubeObject | undefined> => {
    const namespace = secret.metadata?.namespace ?? '';
    const annotations = secret.metadata?.annotations ?? {};
    const name = annotations[ANN_SERVICE_ACCOUNT_NAME] ?? '';
    const uid = annotations[ANN_SERVICE_ACCOUNT_UID];
    let account = accounts.get(namespace, name);
    if (!account) {
      try {
        account = await ctx.client.get(SERVICE_ACCOUNTS, namespace, name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    if (!account || (uid && account.metadata?.uid !== uid)) return undefined;
    return account;
  };

  const deleteSecret = async (secret: KubeObject): Promise<void> => {
    try {
      await ctx.client.delete(SECRETS, secret.metadata?.namespace ?? '', secret.metadata?.name ?? '', { preconditions: { uid: secret.metadata?.uid } });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  };

  const syncSecret = async (namespace: string, name: string): Promise<void> => {
    const cached = secrets.get(namespace, name);
    if (!cached || cached['type'] !== SERVICE_ACCOUNT_TOKEN_TYPE || cached.metadata?.deletionTimestamp) return;
    const account = await accountOf(cached);
    if (!account) return deleteSecret(cached);
    const ca = await clusterCA();
    const needs = (secret: KubeObject) => {
      const data = dataOf(secret);
      return {
        ca: !!ca && decode(data[KEY_CA]) !== ca,
        namespace: !data[KEY_NAMESPACE],
        token: !data[KEY_TOKEN],
        uid: secret.metadata?.annotations?.[ANN_SERVICE_ACCOUNT_UID] !== account.metadata?.uid,
      };
    };
    const cachedNeeds = needs(cached);
    if (!cachedNeeds.ca && !cachedNeeds.namespace && !cachedNeeds.token && !cachedNeeds.uid) return;
    // The cache's copy is never changed: a fresh one is read, and must be the version the cache has.
    let live: KubeObject;
    try {
      live = await ctx.client.get(SECRETS, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (live.metadata?.resourceVersion !== cached.metadata?.resourceVersion) return;
    const n = needs(live);
    const data = { ...dataOf(live) };
    if (n.ca && ca) data[KEY_CA] = btoa(ca);
    if (n.namespace) data[KEY_NAMESPACE] = btoa(namespace);
    if (n.token) {
      const token = await issue({ namespace, serviceAccount: { name: account.metadata?.name ?? '', uid: account.metadata?.uid ?? '' }, secretName: name });
      data[KEY_TOKEN] = btoa(token);
    }
    const annotations = { ...(live.metadata?.annotations ?? {}), [ANN_SERVICE_ACCOUNT_NAME]: account.metadata?.name ?? '', [ANN_SERVICE_ACCOUNT_UID]: account.metadata?.uid ?? '' };
    try {
      await ctx.client.update(SECRETS, namespace, { ...live, metadata: { ...live.metadata, annotations }, data });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  };

  /** An account deleted: its token Secrets go with it. */
  const syncAccount = async (namespace: string, name: string, uid: string): Promise<void> => {
    for (const secret of secrets.list(namespace)) {
      const annotations = secret.metadata?.annotations ?? {};
      if (secret['type'] !== SERVICE_ACCOUNT_TOKEN_TYPE || annotations[ANN_SERVICE_ACCOUNT_NAME] !== name) continue;
      const secretUid = annotations[ANN_SERVICE_ACCOUNT_UID];
      if (secretUid && secretUid !== uid) continue;
      if (!(await accountOf(secret))) await deleteSecret(secret);
    }
  };

  const queue = new WorkQueue(
    SERVICE_ACCOUNT_TOKEN_CONTROLLER,
    ctx.activity,
    async (key) => {
      const [kind, rest] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      if (kind === 'secret') {
        const { namespace, name } = splitKey(rest);
        await syncSecret(namespace, name);
      } else {
        const [ref, uid] = rest.split('#');
        const { namespace, name } = splitKey(ref ?? '');
        await syncAccount(namespace, name, uid ?? '');
      }
    },
    ctx.log,
  );
  const enqueueSecret = (secret: KubeObject) => {
    if (secret['type'] === SERVICE_ACCOUNT_TOKEN_TYPE) queue.add(`secret:${secret.metadata?.namespace}/${secret.metadata?.name}`);
  };

  return {
    name: SERVICE_ACCOUNT_TOKEN_CONTROLLER,
    start() {
      void Promise.all([secrets.synced, accounts.synced]).then(() => {
        unsubscribe.push(
          secrets.addHandler({ onAdd: enqueueSecret, onUpdate: (_old, cur) => enqueueSecret(cur) }),
          accounts.addHandler({ onDelete: (sa) => queue.add(`account:${sa.metadata?.namespace}/${sa.metadata?.name}#${sa.metadata?.uid ?? ''}`) }),
        );
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
