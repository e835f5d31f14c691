// What tutorial steps act and check with: the API as the administrator (the
// server's state is the judge), the audit log (what was sent, by whom, and the
// answer), the other views opened with content filled in, identities, and the
// server's clock.

import { askWorker } from '../../../platform/browser/worker-client';
import { administratorIdentity } from '../../lib/api/administrator';
import { apiFetch } from '../../lib/api/client';
import { ADMIN_IDENTITY } from '../../lib/api/identity';
import type { KubeObject } from '../../lib/api/types';
import { ownershipOf } from '../../lib/managed-fields/ownership';
import { navigate } from '../../lib/router';
import { useAppStore } from '../../lib/store';
import { EMPTY_REQUEST, type ConsoleRequest } from '../../lib/store/console-slice';

export interface ApiAnswer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
}

export interface AuditEntry {
  readonly seq: number;
  readonly event: {
    verb: string;
    requestURI: string;
    user: { username?: string };
    impersonatedUser?: { username?: string };
    objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string };
    responseStatus?: { code?: number; message?: string };
  };
  readonly authorization?: { decision: string };
}

export interface TutorialContext {
  /** A request as the administrator; the body is JSON unless a content type says otherwise. */
  api(method: string, path: string, body?: unknown, contentType?: string): Promise<ApiAnswer>;
  get(path: string): Promise<KubeObject | null>;
  /** Creates the object unless it exists (409 is fine). */
  ensure(collectionPath: string, object: unknown): Promise<void>;
  /** The newest audit records, newest first. */
  audit(limit?: number): Promise<AuditEntry[]>;
  openEditor(yaml: string, fieldManager: string): void;
  openConsole(request: Partial<ConsoleRequest>): void;
  openManagedFields(objectPath: string): void;
  openAccess(params: Record<string, string>): void;
  /** Adds a static token user of the configuration as an identity; returns its id. */
  ensureTokenIdentity(user: string): Promise<string>;
  /** Sends as the administrator again. */
  useAdministrator(): void;
  advanceClock(ms: number): Promise<void>;
}

async function answer(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, json };
}

export function tutorialContext(): TutorialContext {
  const api = async (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    answer(
      await apiFetch(path, {
        method,
        identity: administratorIdentity(),
        headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': contentType } : {}) },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      }),
    );
  return {
    api,
    async get(path) {
      const got = await api('GET', path);
      return got.status === 200 ? (got.json as KubeObject) : null;
    },
    async ensure(collectionPath, object) {
      const created = await api('POST', collectionPath, object);
      if (created.status !== 201 && created.status !== 409) throw new Error(`${collectionPath}: ${created.status} ${created.json?.message ?? ''}`);
    },
    async audit(limit = 1000) {
      const got = await api('GET', `/kubetab/v1/audit?limit=${limit}`);
      if (got.status !== 200) throw new Error(`the audit log answered ${got.status}`);
      return [...(got.json.items as AuditEntry[])].reverse();
    },
    openEditor(yaml, fieldManager) {
      const store = useAppStore.getState();
      store.setFieldManager(fieldManager);
      store.replaceEditorText(yaml);
      navigate('editor');
    },
    openConsole(request) {
      useAppStore.getState().setConsoleDraft({ ...EMPTY_REQUEST, identityId: '', ...request });
      navigate('console');
    },
    openManagedFields(objectPath) {
      navigate('managed-fields', { path: objectPath });
    },
    openAccess(params) {
      navigate('access', params);
    },
    async ensureTokenIdentity(user) {
      const state = await askWorker('kubetab:configuration:get', {});
      const entry = state.document.tokens?.find((t) => t.user === user);
      if (!entry) throw new Error(`the cluster's configuration has no static token user ${user}`);
      const id = `token:${user}`;
      useAppStore.getState().upsertIdentity({ id, label: user, kind: 'token', token: entry.token });
      return id;
    },
    useAdministrator() {
      useAppStore.getState().selectIdentity(ADMIN_IDENTITY.id);
    },
    async advanceClock(ms) {
      await askWorker('kubetab:clock:advance', { ms });
    },
  };
}

/** The managers owning a field (".data.color") of an object, by its managedFields. */
export function ownersOfField(object: KubeObject, field: string): string[] {
  return ownershipOf(object)
    .managers.filter((m) => m.fields.includes(field))
    .map((m) => m.manager);
}

/** The user a recorded request was served as. */
export function servedAs(entry: AuditEntry): string {
  return entry.event.impersonatedUser?.username ?? entry.event.user.username ?? '';
}

/** The query parameters of a recorded request. */
export function queryOf(entry: AuditEntry): URLSearchParams {
  const uri = entry.event.requestURI;
  const at = uri.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : uri.slice(at + 1));
}
