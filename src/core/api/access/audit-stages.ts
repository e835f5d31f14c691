// The audit filter's work around a request, at the stages kube-apiserver
// records (k8s.io/apiserver/pkg/endpoints/filters/audit.go):
//   RequestReceived   as soon as the user is known (the policy's rules name users);
//   ResponseStarted   when a long-running response (a watch) sends its headers;
//   ResponseComplete  when the response is done (for a watch, when its stream ends);
//   Panic             when the response breaks off mid-way.
// A request whose authentication failed is recorded once, at ResponseStarted,
// as kube's failed-authentication audit does. The policy (--audit-policy-file)
// decides the level: None records nothing, Request adds the request body,
// RequestResponse the response body too; its omitStages leave stages out.
// Events go to the configured backend (the Node host's --audit-log-path);
// the ring the UI reads keeps each request once (./audit-log).

import { parse as parseYaml } from 'yaml';
import { decodeKubernetesProtobuf } from '../../protobuf';
import type { AuditEvent, AuditStage } from '../../auth/audit/event';
import { auditDecision } from '../../auth/audit/policy';
import type { AccessControl } from './access-control';
import { auditEvent, type AuditEntry } from './audit-log';

/** Bodies larger than this are not kept in an event (kube's request limit is 3 MiB). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

function levelAtLeast(entry: AuditEntry, level: 'Request' | 'RequestResponse'): boolean {
  return entry.level === 'RequestResponse' || (level === 'Request' && entry.level === 'Request');
}

/** Sends the entry at `stage` to the backend, unless the policy omits it or says None. */
export function emitStage(access: AccessControl, entry: AuditEntry, stage: AuditStage): void {
  const sink = access.auditSink;
  if (!sink || !entry.level || entry.level === 'None' || entry.omitStages?.includes(stage)) return;
  let event: AuditEvent;
  if (stage === 'RequestReceived') {
    // Nothing of the response yet.
    const { code: _code, status: _status, responseObject: _response, ...before } = entry;
    event = auditEvent({ ...before, stageAt: entry.receivedAt } as AuditEntry, stage, entry.level);
  } else {
    event = auditEvent(entry, stage, entry.level);
  }
  try {
    sink(event);
  } catch {
    // A failing backend must not fail the request (kube's backends buffer and drop).
  }
}

/** metadata.managedFields removed from an object and from a list's items (omitManagedFields). */
function withoutManagedFields(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const o = body as Record<string, unknown>;
  const strip = (obj: unknown): unknown => {
    if (!obj || typeof obj !== 'object') return obj;
    const x = obj as Record<string, unknown>;
    const meta = x.metadata as Record<string, unknown> | undefined;
    if (!meta || !('managedFields' in meta)) return obj;
    const { managedFields: _mf, ...rest } = meta;
    return { ...x, metadata: rest };
  };
  const out = strip(o) as Record<string, unknown>;
  return Array.isArray(out.items) ? { ...out, items: out.items.map(strip) } : out;
}

/** A body as kube records it: decoded to JSON from JSON, YAML or Kubernetes protobuf; anything else is left out. */
function decodeBody(bytes: Uint8Array, contentType: string | null): unknown {
  if (bytes.byteLength === 0 || bytes.byteLength > MAX_BODY_BYTES) return undefined;
  const type = (contentType ?? '').toLowerCase();
  try {
    if (type.includes('protobuf')) return decodeKubernetesProtobuf(bytes).object;
    const text = new TextDecoder().decode(bytes);
    if (type.includes('yaml')) return parseYaml(text) as unknown;
    if (type === '' || type.includes('json')) return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * After authentication: the policy's level for this request (the user as
 * authenticated, before impersonation, as kube evaluates it), the
 * RequestReceived stage, and the request body kept when the level asks for it.
 */
export function auditRequestReceived(access: AccessControl, entry: AuditEntry, request: Request): Promise<void> | undefined {
  const policy = access.config.auditPolicy;
  if (!policy) return undefined;
  const decision = auditDecision(policy, { ...(entry.user ? { user: entry.user } : {}), info: entry.info });
  entry.level = decision.level;
  entry.omitStages = decision.omitStages;
  entry.omitManagedFields = decision.omitManagedFields;
  emitStage(access, entry, 'RequestReceived');
  if (!levelAtLeast(entry, 'Request') || request.body === null) return undefined;
  // A tee of the body: the handler reads the original as before.
  const copy = request.clone();
  const contentType = request.headers.get('content-type');
  const read = copy.arrayBuffer().then(
    (buffer) => {
      const body = decodeBody(new Uint8Array(buffer), contentType);
      if (body !== undefined) entry.requestObject = entry.omitManagedFields ? withoutManagedFields(body) : body;
    },
    () => undefined,
  );
  pendingBodies.set(entry, read);
  return read;
}

const pendingBodies = new WeakMap<AuditEntry, Promise<void>>();

/** A failed authentication: the policy decides for a request without a user; one event at ResponseStarted. */
export function auditUnauthenticated(access: AccessControl, entry: AuditEntry): void {
  const policy = access.config.auditPolicy;
  if (!policy) return;
  const decision = auditDecision(policy, { info: entry.info });
  entry.level = decision.level;
  entry.omitStages = decision.omitStages;
  entry.omitManagedFields = decision.omitManagedFields;
}

/** A body stream that reports each chunk and its end (done, cancelled, or broken off). */
function observed(body: ReadableStream<Uint8Array>, onEnd: (how: 'complete' | 'panic') => void, onChunk?: (chunk: Uint8Array) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = (how: 'complete' | 'panic') => {
    if (ended) return;
    ended = true;
    onEnd(how);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end('complete');
        } else if (value) {
          onChunk?.(value);
          controller.enqueue(value);
        }
      } catch (err) {
        end('panic');
        controller.error(err);
      }
    },
    async cancel(reason) {
      // The client went away: the watch is over.
      end('complete');
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

/**
 * When the core has its response: the code and stage time on the entry, and
 * the remaining stages to the backend. Returns the response to send (a watch's
 * body wrapped so that its end is recorded; otherwise the same response).
 */
export function auditResponse(access: AccessControl, entry: AuditEntry, response: Response): Response {
  entry.code = response.status;
  entry.stageAt = access.clock.now();
  if (!access.auditSink || !entry.level || entry.level === 'None') return response;
  const requestBody = pendingBodies.get(entry) ?? Promise.resolve();
  if (entry.authentication && entry.authentication.status !== 'ok') {
    // Failed authentication: kube records one event, at ResponseStarted.
    emitStage(access, entry, 'ResponseStarted');
    return response;
  }
  if (entry.stage === 'ResponseStarted' && response.body) {
    emitStage(access, entry, 'ResponseStarted');
    const body = observed(response.body, (how) => {
      entry.stageAt = access.clock.now();
      emitStage(access, entry, how === 'complete' ? 'ResponseComplete' : 'Panic');
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  const contentType = response.headers.get('content-type');
  if (levelAtLeast(entry, 'RequestResponse') && response.body) {
    // The body is copied as the client reads it; the event goes out when it ends.
    const chunks: Uint8Array[] = [];
    let size = 0;
    const body = observed(
      response.body,
      (how) => {
        void requestBody.then(() => {
          if (how === 'complete' && size <= MAX_BODY_BYTES) {
            const bytes = new Uint8Array(size);
            let at = 0;
            for (const c of chunks) {
              bytes.set(c, at);
              at += c.byteLength;
            }
            const decoded = decodeBody(bytes, contentType);
            if (decoded !== undefined) entry.responseObject = entry.omitManagedFields ? withoutManagedFields(decoded) : decoded;
          }
          emitStage(access, entry, how === 'complete' ? 'ResponseComplete' : 'Panic');
        });
      },
      (chunk) => {
        size += chunk.byteLength;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  void requestBody.then(() => emitStage(access, entry, 'ResponseComplete'));
  return response;
}
