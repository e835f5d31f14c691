// The kubelet's server side (its port 10250) for one node: container logs,
// exec, attach and port-forward into the pods this kubelet runs, and the
// summary stats metrics-server reads. Errors carry the status and message
// the kubelet answers with.

import { str } from '../../kinds/builtin/common/table';
import { KubeletError, type AttachOptions, type ExecOptions, type KubeletConnection, type LogOptions, type NodeStats, type PodRef, type PortStream, type StreamSession } from '../connection';
import { imageInfo } from '../images/image-catalog';
import { ByteStreamDecoder, textToBytes } from '../shell/bytes';
import { parseImageReference } from '../images/image-reference';
import { answerHttp, accessLogLine, httpResponseText } from '../runtime/http-responder';
import type { SimProcess } from '../runtime/process';
import { isRunning, type ContainerRecord } from './container-record';
import type { PodWorker } from './pod-worker';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Window metrics-server reports usage over. */
const STATS_WINDOW_MS = 15_000;

export interface WorkerLookup {
  byUID(uid: string): PodWorker | undefined;
  byName(namespace: string, name: string): PodWorker | undefined;
  all(): PodWorker[];
  now(): number;
  /** The node's own overhead (system daemons, kubelet, containerd). */
  nodeOverhead(): { cpuNanoCores: number; memoryBytes: number };
}

function findWorker(lookup: WorkerLookup, pod: PodRef): PodWorker {
  const w = (pod.uid ? lookup.byUID(pod.uid) : undefined) ?? lookup.byName(pod.namespace, pod.name);
  if (!w || w.gone) throw new KubeletError(404, `pod ${JSON.stringify(`${pod.name}_${pod.namespace}`)} not found`);
  return w;
}

function findContainer(w: PodWorker, name: string): ContainerRecord {
  const r = w.record(name);
  if (!r) throw new KubeletError(400, `container ${JSON.stringify(name)} in pod ${JSON.stringify(w.name)} is not valid`);
  return r;
}

/** A session over a simulated process: its output to the listeners, stdin to it. */
function session(process: SimProcess, buffered: [1 | 2, Uint8Array][], setListener: (l: (stream: 1 | 2, data: Uint8Array) => void) => void): StreamSession {
  // stdin's bytes become the shell's byte text (a tar archive from kubectl cp is binary).
  const stdin = new ByteStreamDecoder();
  return {
    write: (data) => {
      const text = stdin.decode(data);
      if (text) process.writeStdin(text);
    },
    closeStdin: () => {
      const rest = stdin.decode(null);
      if (rest) process.writeStdin(rest);
      process.writeStdin(null);
    },
    resize: () => undefined,
    onOutput(listener) {
      for (const [stream, data] of buffered.splice(0)) listener(stream, data);
      setListener(listener);
    },
    kill: () => process.signal('SIGKILL', process.time),
    done: process.done.then((exit) => ({ exitCode: exit.code })),
  };
}

export function kubeletConnection(lookup: WorkerLookup): Omit<KubeletConnection, 'nodeName'> {
  return {
    async containerLog(pod: PodRef, options: LogOptions): Promise<ReadableStream<Uint8Array>> {
      const w = findWorker(lookup, pod);
      const r = findContainer(w, options.container);
      if (options.previous) {
        const prev = r.current?.terminated && r.waiting ? r.current : r.previous;
        if (!prev) throw new KubeletError(400, `previous terminated container ${JSON.stringify(options.container)} in pod ${JSON.stringify(w.name)} not found`);
        return prev.log.read(options);
      }
      if (!r.current) throw new KubeletError(400, `container ${JSON.stringify(options.container)} in pod ${JSON.stringify(w.name)} is waiting to start: ${r.waiting?.reason ?? 'ContainerCreating'}`);
      return r.current.log.read(options);
    },

    async exec(pod: PodRef, options: ExecOptions): Promise<StreamSession> {
      const w = findWorker(lookup, pod);
      const r = w.record(options.container);
      const inst = r?.current;
      if (!r || !inst || !isRunning(r) || !inst.fs) throw new KubeletError(400, `container not found (${JSON.stringify(options.container)})`);
      const buffered: [1 | 2, Uint8Array][] = [];
      let listener: ((stream: 1 | 2, data: Uint8Array) => void) | undefined;
      const p = w.starter.spawn(inst, r, options.command, {
        stdin: options.stdin,
        tty: options.tty,
        output: (stream, text) => {
          const chunk: [1 | 2, Uint8Array] = [options.tty || stream === 'stdout' ? 1 : 2, textToBytes(text)];
          if (listener) listener(chunk[0], chunk[1]);
          else buffered.push(chunk);
        },
      });
      if (typeof p === 'string') {
        // runc's message for a command the image does not have; kubectl prints it and exits 126/127 as the runtime says.
        const message = p.replace(/^failed to create containerd task: failed to create shim task: /, '');
        return {
          write: () => undefined,
          closeStdin: () => undefined,
          resize: () => undefined,
          onOutput: () => undefined,
          kill: () => undefined,
          done: Promise.resolve({ exitCode: 126, message }),
        };
      }
      return session(p, buffered, (l) => (listener = l));
    },

    async attach(pod: PodRef, options: AttachOptions): Promise<StreamSession> {
      const w = findWorker(lookup, pod);
      const r = w.record(options.container);
      const inst = r?.current;
      const process = inst?.process;
      if (!r || !inst || !process || !process.running) throw new KubeletError(400, `container not found (${JSON.stringify(options.container)})`);
      const stream = inst.log.read({ follow: true, sinceTimeMs: lookup.now() });
      const reader = stream.getReader();
      let listener: ((stream: 1 | 2, data: Uint8Array) => void) | undefined;
      const buffered: [1 | 2, Uint8Array][] = [];
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done || !value) break;
          if (listener) listener(1, value);
          else buffered.push([1, value]);
        }
      })();
      return {
        write: (data) => {
          if (options.stdin && r.spec.stdin === true) process.writeStdin(decoder.decode(data));
        },
        closeStdin: () => {
          if (options.stdin && r.spec.stdinOnce === true) process.writeStdin(null);
        },
        resize: () => undefined,
        onOutput(l) {
          for (const [s, d] of buffered.splice(0)) l(s, d);
          listener = l;
        },
        kill: () => void reader.cancel().catch(() => undefined),
        done: process.done.then(async (exit) => {
          await reader.cancel().catch(() => undefined);
          return { exitCode: exit.code };
        }),
      };
    },

    async portForward(pod: PodRef, port: number): Promise<PortStream> {
      const w = findWorker(lookup, pod);
      const serving = w.records().find((r) => isRunning(r) && r.current?.process?.ports.has(port));
      if (!serving?.current?.fs) {
        throw new KubeletError(500, `error forwarding port ${port} to pod ${w.uid}, uid : failed to execute portforward in network namespace: failed to connect to localhost:${port} inside namespace: IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused`);
      }
      const inst = serving.current;
      const repository = parseImageReference(str(serving.spec.image)).repository;
      const listeners: ((data: Uint8Array) => void)[] = [];
      let closeResolve!: () => void;
      const closed = new Promise<void>((resolve) => (closeResolve = resolve));
      let request = '';
      let answered = false;
      const answer = () => {
        if (answered) return;
        const firstLine = request.split('\r\n')[0] ?? '';
        const [method = 'GET', path = '/'] = firstLine.split(' ');
        const ua = /\r\nuser-agent: *([^\r\n]*)/i.exec(request)?.[1] ?? '-';
        answered = true;
        const now = lookup.now();
        if (!/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(firstLine)) {
          for (const l of listeners) l(encoder.encode(''));
          closeResolve();
          return;
        }
        const a = answerHttp({ repository, podName: w.name, fs: inst.fs! }, method, path);
        const line = accessLogLine(repository, '127.0.0.1', method, path, a, ua, now);
        if (line) inst.log.write('stdout', line, Math.max(now, inst.process?.time ?? 0));
        const bytes = encoder.encode(httpResponseText(a, now));
        for (const l of listeners) l(bytes);
        closeResolve();
      };
      return {
        write(data) {
          request += decoder.decode(data);
          if (request.includes('\r\n\r\n')) answer();
        },
        end() {
          if (!answered && request) answer();
          closeResolve();
        },
        onData(listener) {
          listeners.push(listener);
        },
        closed,
      };
    },

    async stats(): Promise<NodeStats> {
      const now = lookup.now();
      const pods = lookup
        .all()
        .filter((w) => !w.gone && w.records().some(isRunning))
        .map((w) => ({
          namespace: w.namespace,
          name: w.name,
          containers: w.records().filter(isRunning).map((r) => {
            const process = r.current!.process!;
            let idle = { cpu: 1_000_000, mem: 4 * 1024 * 1024 };
            try {
              const info = imageInfo(parseImageReference(str(r.spec.image)));
              idle = { cpu: info.idleCpuNanoCores, mem: info.idleMemoryBytes };
            } catch {
              // an invalid image never runs
            }
            return { name: r.name, cpuNanoCores: process.cpuNanoCores || idle.cpu, memoryBytes: process.memoryBytes || idle.mem };
          }),
        }));
      const overhead = lookup.nodeOverhead();
      let cpu = overhead.cpuNanoCores;
      let mem = overhead.memoryBytes;
      for (const p of pods) for (const c of p.containers) {
        cpu += c.cpuNanoCores;
        mem += c.memoryBytes;
      }
      return { timestampMs: now, windowMs: STATS_WINDOW_MS, node: { cpuNanoCores: cpu, memoryBytes: mem }, pods };
    },
  };
}

