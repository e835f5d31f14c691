// One try of a probe, as the kubelet's prober performs it: exec runs the
// command in the container (exit 0 passes; a command still running at the
// timeout fails), httpGet asks the container's server (a status from 200
// to 399 passes; nginx logs the request as from kube-probe), tcpSocket and
// grpc pass when the container listens on the port. Failures carry the
// prober's wording for the Unhealthy event.

import { arr, rec, str } from '../../kinds/builtin/common/table';
import { parseImageReference } from '../images/image-reference';
import { accessLogLine, answerHttp } from '../runtime/http-responder';
import type { ContainerRecord, Instance } from './container-record';
import type { ProbeOutcome } from './probe-worker';
import type { PodWorker } from './pod-worker';

/** A probe's port: a number, or the name of one of the container's ports. */
export function resolvePort(container: Record<string, unknown>, port: unknown): number | undefined {
  if (typeof port === 'number') return port;
  const text = String(port ?? '');
  if (/^\d+$/.test(text)) return Number(text);
  const named = arr(container.ports).map(rec).find((p) => p.name === text);
  return named ? Number(named.containerPort) : undefined;
}

export async function runProbe(worker: PodWorker, r: ContainerRecord, inst: Instance, spec: Record<string, unknown>, timeoutMs: number): Promise<ProbeOutcome> {
  const { clock, timers } = worker.ctx;
  const ip = worker.podIP ?? '';
  if (spec.exec) {
    const command = arr(rec(spec.exec).command).map(String);
    let output = '';
    const p = worker.starter.spawn(inst, r, command, { output: (_s, t) => (output += t) });
    if (typeof p === 'string') return { ok: false, output: p };
    let timedOut = false;
    const handle = timers.at(clock.now() + timeoutMs, () => {
      if (p.running) {
        timedOut = true;
        p.signal('SIGKILL', clock.now());
      }
    });
    const exit = await p.done;
    timers.cancel(handle);
    if (timedOut) return { ok: false, output: `command ${JSON.stringify(command.join(' '))} timed out` };
    return { ok: exit.code === 0, output };
  }
  const listening = (port: number | undefined) => port !== undefined && !!inst.process?.running && inst.process.ports.has(port);
  if (spec.httpGet) {
    const g = rec(spec.httpGet);
    const port = resolvePort(r.spec, g.port);
    const host = str(g.host) || ip;
    const path = str(g.path) || '/';
    const scheme = (str(g.scheme) || 'HTTP').toLowerCase();
    const url = `${scheme}://${host}:${port ?? str(g.port)}${path}`;
    if (!listening(port)) return { ok: false, output: `Get ${JSON.stringify(url)}: dial tcp ${host}:${port ?? str(g.port)}: connect: connection refused` };
    const repository = parseImageReference(str(r.spec.image)).repository;
    const answer = answerHttp({ repository, podName: worker.name, fs: inst.fs! }, 'GET', path);
    const line = accessLogLine(repository, worker.ctx.ips.gateway, 'GET', path, answer, 'kube-probe/1.32', clock.now());
    if (line) inst.log.write('stdout', line, Math.max(clock.now(), inst.process?.time ?? 0));
    if (answer.status >= 200 && answer.status < 400) return { ok: true, output: '' };
    return { ok: false, output: `HTTP probe failed with statuscode: ${answer.status}` };
  }
  if (spec.tcpSocket) {
    const t = rec(spec.tcpSocket);
    const port = resolvePort(r.spec, t.port);
    const host = str(t.host) || ip;
    return listening(port) ? { ok: true, output: '' } : { ok: false, output: `dial tcp ${host}:${port ?? str(t.port)}: connect: connection refused` };
  }
  if (spec.grpc) {
    const port = Number(rec(spec.grpc).port);
    return listening(port) ? { ok: true, output: '' } : { ok: false, output: `timeout: failed to connect service "${ip}:${port}" within ${timeoutMs / 1000}s: context deadline exceeded` };
  }
  return { ok: true, output: '' };
}
