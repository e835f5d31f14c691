// The admission webhooks (MutatingAdmissionWebhook and
// ValidatingAdmissionWebhook, on by default in 1.32), as kube's generic
// webhook dispatchers run them: configurations by name, webhooks in their
// order; a webhook is called when its rules, namespaceSelector,
// objectSelector and matchConditions select the request (never for the
// admission configuration objects themselves). Mutating webhooks run one
// after another, their JSONPatch applied to the object, and those with
// reinvocationPolicy IfNeeded run once more when a later webhook changed the
// object; validating webhooks run side by side. A refusal is kube's
// `admission webhook "<name>" denied the request: <message>` with the
// webhook's status; a failed call is `Internal error occurred: failed calling
// webhook …` (500) under failurePolicy Fail and skipped under Ignore.

import { base64ToBytes } from '../../auth/authn/secret-data';
import { errors, StatusError, type Status } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { applyJsonPatchOperations } from '../../patch/json-patch';
import { admissionRequest } from '../policy/admission-request';
import { requestAuthorizer } from '../policy/authorizer';
import { AdmissionActivation } from '../policy/cel';
import { evaluateMatchConditions } from '../policy/match-conditions';
import { isExemptAdmissionConfigurationResource, namespaceSelectorMatches, objectSelectorMatches, rulesMatch } from '../policy/matching';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { callWebhook, WebhookCallError } from './call';
import { webhookFetchOf, type WebhookFetch } from './fetch';

type Obj = Record<string, unknown>;
const GROUP = 'admissionregistration.k8s.io';

interface Hook {
  readonly configuration: string;
  readonly index: number;
  readonly webhook: Obj;
  readonly name: string;
}

/** True when the server's in-memory copy says there is no configuration of this resource (the request needs no look at them). */
function noConfigurations(resource: string, ctx: AdmissionContext): boolean {
  return ctx.reader.cached?.({ group: GROUP, resource })?.list('').length === 0;
}

async function hooksOf(resource: string, ctx: AdmissionContext): Promise<Hook[]> {
  const configs = await ctx.reader.list({ group: GROUP, resource }, '');
  configs.sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0));
  const hooks: Hook[] = [];
  for (const c of configs) {
    const webhooks = Array.isArray((c as Obj).webhooks) ? ((c as Obj).webhooks as Obj[]) : [];
    webhooks.forEach((w) => hooks.push({ configuration: c.metadata?.name ?? '', index: hooks.length, webhook: w, name: String(w.name ?? '') }));
  }
  return hooks;
}

/** kube's ToStatusErr: the webhook's status, at least 400, with "admission webhook … denied the request". */
export function webhookDenial(name: string, result: unknown): StatusError {
  const r = (result && typeof result === 'object' ? result : {}) as Partial<Status>;
  const deniedBy = `admission webhook ${JSON.stringify(name)} denied the request`;
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  const err = new StatusError(code, r.reason ?? '', message, r.details);
  if (r.metadata && typeof r.metadata === 'object') err.status.metadata = { ...r.metadata };
  return err;
}

function reviewVersion(webhook: Obj): 'v1' | 'v1beta1' {
  const versions = Array.isArray(webhook.admissionReviewVersions) ? webhook.admissionReviewVersions : ['v1beta1'];
  return versions.find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1') ?? 'v1';
}

async function shouldCall(hook: Hook, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<boolean> {
  const w = hook.webhook;
  if (!rulesMatch(w.rules, attrs, w.matchPolicy)) return false;
  if (!(await namespaceSelectorMatches(w.namespaceSelector, attrs, ctx))) return false;
  if (!objectSelectorMatches(w.objectSelector, attrs)) return false;
  if (Array.isArray(w.matchConditions) && w.matchConditions.length) {
    const activation = new AdmissionActivation({
      object: attrs.operation === 'DELETE' ? null : attrs.object,
      oldObject: attrs.oldObject,
      request: admissionRequest(attrs, '', false),
      params: null,
      namespaceObject: null,
      authorizer: requestAuthorizer(attrs, ctx),
    });
    const result = await evaluateMatchConditions(w.matchConditions, activation);
    if (result.error !== undefined) {
      // kube's matcher: errors skip the webhook under Ignore and refuse the request (403, not a call failure) under Fail.
      if (w.failurePolicy === 'Ignore') return false;
      throw errors.forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, result.error);
    }
    return result.matches;
  }
  return true;
}

function failOpen(hook: Hook, attrs: AdmissionAttributes, err: unknown, kind: 'validating' | 'mutating', round: number): void {
  if (!(err instanceof WebhookCallError)) throw err;
  if (hook.webhook.failurePolicy === 'Ignore') {
    attrs.addAuditAnnotation(`failed-open.${kind}.webhook.admission.k8s.io/round_${round}_index_${hook.index}`, hook.name);
    return;
  }
  throw errors.internal(new Error(err.message));
}

function takeResponseExtras(hook: Hook, response: Obj, attrs: AdmissionAttributes): void {
  for (const w of Array.isArray(response.warnings) ? response.warnings : []) if (typeof w === 'string' && w) attrs.addWarning(w);
  const annotations = response.auditAnnotations;
  if (annotations && typeof annotations === 'object') {
    for (const [k, v] of Object.entries(annotations as Obj)) if (typeof v === 'string') attrs.addAuditAnnotation(`${hook.name}/${k}`, v);
  }
}

/**
 * One webhook's review of a request: undefined when its rules, selectors or
 * match conditions leave the request out; otherwise its AdmissionReview
 * response, whose warnings and audit annotations are already taken.
 */
async function review(hook: Hook, attrs: AdmissionAttributes, ctx: AdmissionContext, fetchFn: WebhookFetch): Promise<Obj | undefined> {
  if (!(await shouldCall(hook, attrs, ctx))) return undefined;
  checkDryRun(hook, attrs);
  const response = await callWebhook(
    { webhookName: hook.name, clientConfig: (hook.webhook.clientConfig ?? {}) as Obj, timeoutSeconds: timeoutOf(hook.webhook), reviewVersion: reviewVersion(hook.webhook), request: admissionRequest(attrs, crypto.randomUUID(), true) },
    ctx,
    fetchFn,
  );
  takeResponseExtras(hook, response, attrs);
  return response;
}

function checkDryRun(hook: Hook, attrs: AdmissionAttributes): void {
  const sideEffects = hook.webhook.sideEffects;
  if (attrs.dryRun && sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun') {
    throw errors.badRequest(`admission webhook ${JSON.stringify(hook.name)} does not support dry run`);
  }
}

function timeoutOf(webhook: Obj): number {
  return typeof webhook.timeoutSeconds === 'number' ? webhook.timeoutSeconds : 10;
}

export function createValidatingWebhookPlugin(): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    handles: () => true,
    validate(attrs, ctx) {
      if (isExemptAdmissionConfigurationResource(attrs) || noConfigurations('validatingwebhookconfigurations', ctx)) return undefined;
      return validateWithHooks(attrs, ctx);
    },
  };
}

async function validateWithHooks(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
  const hooks = await hooksOf('validatingwebhookconfigurations', ctx);
  if (!hooks.length) return;
  const fetchFn = webhookFetchOf(ctx.services);
  const outcomes = await Promise.all(
    hooks.map(async (hook): Promise<unknown> => {
      try {
        const response = await review(hook, attrs, ctx, fetchFn);
        if (!response) return undefined;
        if (response.allowed !== true) return webhookDenial(hook.name, response.status);
        return undefined;
      } catch (err) {
        try {
          failOpen(hook, attrs, err, 'validating', 0);
          return undefined;
        } catch (e) {
          return e;
        }
      }
    }),
  );
  const first = outcomes.find((o) => o !== undefined);
  if (first !== undefined) throw first;
}

function replaceInPlace(target: KubeObject, next: unknown): void {
  for (const k of Object.keys(target)) delete (target as Obj)[k];
  Object.assign(target, next as Obj);
}

export function createMutatingWebhookPlugin(): AdmissionPlugin {
  async function run(hook: Hook, attrs: AdmissionAttributes, ctx: AdmissionContext, round: number): Promise<boolean> {
    const fetchFn = webhookFetchOf(ctx.services);
    try {
      const response = await review(hook, attrs, ctx, fetchFn);
      if (!response) return false;
      if (response.allowed !== true) throw webhookDenial(hook.name, response.status);
      let mutated = false;
      if (typeof response.patch === 'string' && response.patch !== '') {
        if (response.patchType !== 'JSONPatch') {
          throw new WebhookCallError(`failed calling webhook ${JSON.stringify(hook.name)}: received invalid webhook response: ${response.patchType === undefined ? 'webhook returned response.patch but not response.patchType' : `unsupported patch type ${JSON.stringify(response.patchType)}`}`);
        }
        if (attrs.object) {
          let ops: unknown;
          try {
            ops = JSON.parse(new TextDecoder().decode(base64ToBytes(response.patch)));
          } catch (err) {
            throw errors.internal(err);
          }
          let next: unknown;
          try {
            next = applyJsonPatchOperations(attrs.object, Array.isArray(ops) ? ops : []);
          } catch (err) {
            throw errors.internal(err);
          }
          mutated = JSON.stringify(next) !== JSON.stringify(attrs.object);
          if (mutated) replaceInPlace(attrs.object, next);
        }
      }
      attrs.addAuditAnnotation(
        `mutation.webhook.admission.k8s.io/round_${round}_index_${hook.index}`,
        JSON.stringify({ configuration: hook.configuration, webhook: hook.name, mutated }),
      );
      return mutated;
    } catch (err) {
      failOpen(hook, attrs, err, 'mutating', round);
      return false;
    }
  }

  async function mutateWithHooks(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    const hooks = await hooksOf('mutatingwebhookconfigurations', ctx);
    if (!hooks.length) return;
    const mutatedAt: number[] = [];
    for (const hook of hooks) if (await run(hook, attrs, ctx, 0)) mutatedAt.push(hook.index);
    // reinvocationPolicy IfNeeded: once more, for webhooks a later webhook's change came after.
    const lastChange = mutatedAt.length ? Math.max(...mutatedAt) : -1;
    for (const hook of hooks) {
      if (hook.webhook.reinvocationPolicy === 'IfNeeded' && hook.index < lastChange) await run(hook, attrs, ctx, 1);
    }
  }

  return {
    name: 'MutatingAdmissionWebhook',
    handles: () => true,
    admit(attrs, ctx) {
      if (isExemptAdmissionConfigurationResource(attrs) || noConfigurations('mutatingwebhookconfigurations', ctx)) return undefined;
      return mutateWithHooks(attrs, ctx);
    },
  };
}
