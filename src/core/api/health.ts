// /healthz, /livez and /readyz with ?verbose, ?exclude= and the per-check
// paths, with the check names a 1.32 kube-apiserver reports.

import type { ServerContext } from './context';
import { textResponse } from './respond';

const POST_START_HOOKS = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'aggregator-reload-proxy-client-cert',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
];

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

interface Check {
  readonly name: string;
  healthy(ctx: ServerContext): boolean;
}

/** Start-up progress the checks report on. */
export interface StartupState {
  storeReady(): boolean;
  /** The objects of a fresh cluster exist (system namespaces, default RBAC, priority classes, …). */
  bootstrapped(): boolean;
}

/** Post-start hooks that only pass once the bootstrap objects exist. */
const BOOTSTRAP_HOOKS = new Set(['start-system-namespaces-controller', 'rbac/bootstrap-roles', 'scheduling/bootstrap-system-priority-classes', 'bootstrap-controller']);

/** kube's etcd check: the store answers (an external one, etcd, may not). */
const storeHealthy = (ctx: ServerContext): boolean => ctx.store.healthy?.() ?? true;

function checksFor(endpoint: HealthEndpoint, state: StartupState): Check[] {
  const storeReady = () => state.storeReady();
  const ok = () => true;
  const checks: Check[] = [
    { name: 'ping', healthy: ok },
    { name: 'log', healthy: ok },
    { name: 'etcd', healthy: storeHealthy },
  ];
  if (endpoint === 'readyz') checks.push({ name: 'etcd-readiness', healthy: (ctx) => storeReady() && storeHealthy(ctx) });
  if (endpoint === 'readyz') checks.push({ name: 'informer-sync', healthy: storeReady });
  for (const hook of POST_START_HOOKS) {
    checks.push({ name: `poststarthook/${hook}`, healthy: BOOTSTRAP_HOOKS.has(hook) ? () => state.bootstrapped() : ok });
  }
  checks.push({ name: 'autoregister-completion', healthy: ok });
  checks.push({ name: 'poststarthook/apiservice-openapi-controller', healthy: ok });
  checks.push({ name: 'poststarthook/apiservice-openapiv3-controller', healthy: ok });
  if (endpoint === 'readyz') checks.push({ name: 'shutdown', healthy: ok });
  return checks;
}

/** Answers a health path; undefined when the path is not a health path. */
export function handleHealth(ctx: ServerContext, pathname: string, query: URLSearchParams, state: StartupState): Response | undefined {
  const match = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(pathname);
  if (!match) return undefined;
  const endpoint = match[1] as HealthEndpoint;
  const checks = checksFor(endpoint, state);
  const single = match[2];
  if (single) {
    const check = checks.find((c) => c.name === single);
    if (!check) return textResponse('404 page not found\n', 404, 'text/plain; charset=utf-8');
    return check.healthy(ctx)
      ? textResponse('ok', 200, 'text/plain; charset=utf-8', { 'X-Content-Type-Options': 'nosniff' })
      : textResponse(`internal server error: ${single} check failed\n`, 500, 'text/plain; charset=utf-8');
  }
  const excluded = new Set(query.getAll('exclude').flatMap((e) => e.split(',')).filter(Boolean));
  const verbose = query.has('verbose');
  const lines: string[] = [];
  let failed = false;
  for (const check of checks) {
    if (excluded.has(check.name)) {
      lines.push(`[+]${check.name} excluded: ok`);
      excluded.delete(check.name);
      continue;
    }
    if (check.healthy(ctx)) lines.push(`[+]${check.name} ok`);
    else {
      failed = true;
      lines.push(`[-]${check.name} failed: reason withheld`);
    }
  }
  if (excluded.size) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((e) => JSON.stringify(e)).join(',')}`);
  const headers = { 'X-Content-Type-Options': 'nosniff' };
  if (failed) return textResponse(`${lines.join('\n')}\n${endpoint} check failed\n`, 500, 'text/plain; charset=utf-8', headers);
  if (!verbose) return textResponse('ok', 200, 'text/plain; charset=utf-8', headers);
  return textResponse(`${lines.join('\n')}\n${endpoint} check passed\n`, 200, 'text/plain; charset=utf-8', headers);
}
