// A container's environment as the kubelet builds it (makeEnvironmentVariables):
// envFrom (ConfigMaps, Secrets, with their prefix), then env (values with
// $(VAR) references expanded, configMapKeyRef, secretKeyRef, fieldRef,
// resourceFieldRef), then the service-link variables of the namespace's
// services (all of them unless enableServiceLinks is false) and always the
// `kubernetes` service's KUBERNETES_* variables. A missing ConfigMap,
// Secret or key that is not optional is a ContainerConfigError, which the
// kubelet reports as CreateContainerConfigError with the same message.

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../../kinds/builtin/common/table';
import { decodeBase64 } from '../../kinds/builtin/common/base64';
import { CONFIGMAPS, SECRETS, type ObjectSource } from './object-source';
import { DownwardError, fieldRefValue, resourceFieldRefValue, type PodFacts } from './downward-api';

export class ContainerConfigError extends Error {}

const decoder = new TextDecoder();

export function secretValue(b64: unknown): string {
  const bytes = decodeBase64(String(b64 ?? ''));
  return bytes ? decoder.decode(bytes) : '';
}

/** Kubernetes' $(VAR) expansion: $$ is a literal $, an unknown reference stays as written. */
export function expandVars(input: string, env: Readonly<Record<string, string>>): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c !== '$' || i + 1 >= input.length) {
      out += c;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, close);
      out += name in env ? env[name]! : `$(${name})`;
      i = close;
    } else out += c;
  }
  return out;
}

/** The link variables of one service (docker links style), as the kubelet's envvars package writes them. */
export function serviceEnv(service: KubeObject): [string, string][] {
  const spec = rec(service.spec);
  const ip = str(spec.clusterIP);
  if (!ip || ip === 'None') return [];
  const ports = arr(spec.ports).map(rec);
  if (ports.length === 0) return [];
  const name = (service.metadata?.name ?? '').toUpperCase().replace(/-/g, '_');
  const out: [string, string][] = [[`${name}_SERVICE_HOST`, ip], [`${name}_SERVICE_PORT`, String(ports[0]!.port)]];
  for (const p of ports) if (str(p.name)) out.push([`${name}_SERVICE_PORT_${str(p.name).toUpperCase().replace(/-/g, '_')}`, String(p.port)]);
  const first = ports[0]!;
  const proto = (str(first.protocol) || 'TCP').toLowerCase();
  out.push([`${name}_PORT`, `${proto}://${ip.includes(':') ? `[${ip}]` : ip}:${first.port}`]);
  for (const p of ports) {
    const protocol = str(p.protocol) || 'TCP';
    const prefix = `${name}_PORT_${p.port}_${protocol.toUpperCase()}`;
    out.push([prefix, `${protocol.toLowerCase()}://${ip.includes(':') ? `[${ip}]` : ip}:${p.port}`]);
    out.push([`${prefix}_PROTO`, protocol.toLowerCase()]);
    out.push([`${prefix}_PORT`, String(p.port)]);
    out.push([`${prefix}_ADDR`, ip]);
  }
  return out;
}

export interface EnvContext {
  readonly pod: KubeObject;
  readonly container: Record<string, unknown>;
  readonly source: ObjectSource;
  readonly facts: PodFacts;
  /** The image's own ENV (PATH, …), underneath everything the pod sets. */
  readonly imageEnv: Readonly<Record<string, string>>;
  readonly hostname: string;
}

async function configMap(source: ObjectSource, ns: string, name: string): Promise<KubeObject | undefined> {
  return source.get(CONFIGMAPS, ns, name);
}

/** The environment a container starts with; throws ContainerConfigError for what the kubelet refuses. */
export async function containerEnv(ctx: EnvContext): Promise<Record<string, string>> {
  const { pod, container, source, facts } = ctx;
  const ns = pod.metadata?.namespace ?? 'default';
  const spec = rec(pod.spec);
  const own: Record<string, string> = {};
  for (const from of arr(container.envFrom).map(rec)) {
    const prefix = str(from.prefix);
    if (from.configMapRef) {
      const ref = rec(from.configMapRef);
      const cm = await configMap(source, ns, str(ref.name));
      if (!cm) {
        if (ref.optional === true) continue;
        throw new ContainerConfigError(`configmap ${JSON.stringify(str(ref.name))} not found`);
      }
      for (const [k, v] of Object.entries(rec(cm.data))) own[prefix + k] = String(v);
    } else if (from.secretRef) {
      const ref = rec(from.secretRef);
      const secret = await source.get(SECRETS, ns, str(ref.name));
      if (!secret) {
        if (ref.optional === true) continue;
        throw new ContainerConfigError(`secret ${JSON.stringify(str(ref.name))} not found`);
      }
      for (const [k, v] of Object.entries(rec(secret.data))) own[prefix + k] = secretValue(v);
    }
  }
  // Service links first in the expansion map, so that env values can refer to them.
  const services: Record<string, string> = {};
  let serviceList: KubeObject[] = [];
  try {
    serviceList = spec.enableServiceLinks === false ? [] : await source.services(ns);
  } catch {
    serviceList = [];
  }
  for (const svc of serviceList) for (const [k, v] of serviceEnv(svc)) services[k] = v;
  if (ns !== 'default' || spec.enableServiceLinks === false) {
    try {
      const masters = (await source.services('default')).filter((s) => s.metadata?.name === 'kubernetes');
      for (const svc of masters) for (const [k, v] of serviceEnv(svc)) services[k] = v;
    } catch {
      // The kubernetes service is added when it can be read.
    }
  }
  for (const e of arr(container.env).map(rec)) {
    const name = str(e.name);
    if (e.valueFrom === undefined) {
      own[name] = expandVars(str(e.value), { ...services, ...own });
      continue;
    }
    const from = rec(e.valueFrom);
    try {
      if (from.fieldRef) own[name] = fieldRefValue(pod, str(rec(from.fieldRef).fieldPath), facts);
      else if (from.resourceFieldRef) own[name] = resourceFieldRefValue(pod, str(container.name), rec(from.resourceFieldRef), facts);
      else if (from.configMapKeyRef) {
        const ref = rec(from.configMapKeyRef);
        const cm = await configMap(source, ns, str(ref.name));
        if (!cm) {
          if (ref.optional === true) continue;
          throw new ContainerConfigError(`configmap ${JSON.stringify(str(ref.name))} not found`);
        }
        const key = str(ref.key);
        const data = rec(cm.data);
        const binary = rec(cm.binaryData);
        if (key in data) own[name] = String(data[key]);
        else if (key in binary) own[name] = secretValue(binary[key]);
        else if (ref.optional !== true) throw new ContainerConfigError(`couldn't find key ${key} in ConfigMap ${ns}/${str(ref.name)}`);
      } else if (from.secretKeyRef) {
        const ref = rec(from.secretKeyRef);
        const secret = await source.get(SECRETS, ns, str(ref.name));
        if (!secret) {
          if (ref.optional === true) continue;
          throw new ContainerConfigError(`secret ${JSON.stringify(str(ref.name))} not found`);
        }
        const key = str(ref.key);
        const data = rec(secret.data);
        if (key in data) own[name] = secretValue(data[key]);
        else if (ref.optional !== true) throw new ContainerConfigError(`couldn't find key ${key} in Secret ${ns}/${str(ref.name)}`);
      }
    } catch (err) {
      if (err instanceof DownwardError) throw new ContainerConfigError(err.message);
      throw err;
    }
  }
  const result: Record<string, string> = { ...ctx.imageEnv, HOSTNAME: ctx.hostname };
  for (const [k, v] of Object.entries(own)) result[k] = v;
  for (const [k, v] of Object.entries(services)) if (!(k in own)) result[k] = v;
  return result;
}
