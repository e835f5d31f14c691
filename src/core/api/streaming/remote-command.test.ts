// exec and attach through the server as a host drives them: the request
// marked as a WebSocket upgrade, the core's session connected to a socket
// double, the process played by a KubeletConnection double. Checks the
// channel protocol a client sees: the first empty message, output on its
// channels, stdin, resize, v5's close of stdin, the final Status on channel 3
// and the normal closure; and the errors before and after the upgrade.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { KubeletConnections, KubeletError } from '../../kubelet/connection';
import { acceptedUpgradeOf, offerUpgrade, type ChannelSession, type MessageSocket } from './upgrade';
import { FakeKubelet, type FakeProcess } from './testing/fake-kubelet';

const PODS = '/api/v1/namespaces/default/pods';
let t: TestServer;
let kubelet: FakeKubelet;

/** A client's end of the WebSocket: what the server sent, and a way to send. */
class SocketDouble implements MessageSocket {
  readonly sent: Uint8Array[] = [];
  closedWith: number | undefined;
  private messageListeners: ((d: Uint8Array) => void)[] = [];
  private closeListeners: (() => void)[] = [];
  private waiters: (() => void)[] = [];
  send(data: Uint8Array): void {
    this.sent.push(data);
    this.waiters.splice(0).forEach((w) => w());
  }
  close(code = 1000): void {
    this.closedWith = code;
    this.waiters.splice(0).forEach((w) => w());
    this.closeListeners.forEach((l) => l());
  }
  onMessage(listener: (d: Uint8Array) => void): void {
    this.messageListeners.push(listener);
  }
  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }
  clientSends(channel: number, data: string | number[]): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : Uint8Array.from(data);
    this.messageListeners.forEach((l) => l(Uint8Array.from([channel, ...bytes])));
  }
  clientGoesAway(): void {
    this.closeListeners.forEach((l) => l());
  }
  /** The messages as [channel, text]. */
  messages(): [number, string][] {
    return this.sent.map((m) => [m[0]!, new TextDecoder().decode(m.subarray(1))]);
  }
  async until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

async function upgrade(path: string, protocols = ['v5.channel.k8s.io']): Promise<{ response: Response; session: ChannelSession | undefined }> {
  const request = new Request(`http://kubetab.test${path}`, { headers: { Connection: 'Upgrade', Upgrade: 'websocket' } });
  offerUpgrade(request, { protocols });
  const response = await t.server.handle(request);
  const session = acceptedUpgradeOf(request);
  return { response, session: session?.kind === 'channels' ? session : undefined };
}

async function started(): Promise<FakeProcess> {
  for (let i = 0; i < 100 && kubelet.processes.length === 0; i++) await new Promise((r) => setTimeout(r, 1));
  return kubelet.processes.at(-1)!;
}

beforeEach(async () => {
  const kubelets = new KubeletConnections();
  kubelet = new FakeKubelet('worker');
  kubelets.register(kubelet);
  t = await startTestServer({}, undefined, [], { kubeletConnections: kubelets });
  for (const name of ['worker', 'stopped']) {
    await t.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { addresses: [{ type: 'InternalIP', address: '172.18.0.4' }] } });
  }
  await t.post(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'worker', containers: [{ name: 'app', image: 'busybox' }] } });
});
afterEach(async () => {
  await t.close();
});

describe('exec over v5.channel.k8s.io', () => {
  it('runs the command: output on its channels, stdin until closed, Success at the end', async () => {
    const { session } = await upgrade(`${PODS}/p/exec?command=cat&command=-&stdin=true&stdout=true&stderr=true`);
    expect(session?.protocol).toBe('v5.channel.k8s.io');
    const socket = new SocketDouble();
    session!.start(socket);
    const process = await started();
    expect(process.options).toEqual({ container: 'app', command: ['cat', '-'], stdin: true, tty: false });
    socket.clientSends(0, 'hello\n');
    socket.clientSends(255, [0]);
    expect(process.stdinText()).toBe('hello\n');
    expect(process.stdinClosed).toBe(true);
    process.output(1, 'hello\n');
    process.output(2, 'warning\n');
    process.exit(0);
    await socket.until(() => socket.closedWith !== undefined);
    expect(socket.messages()).toEqual([
      [1, ''],
      [1, 'hello\n'],
      [2, 'warning\n'],
      [3, '{"metadata":{},"status":"Success"}'],
    ]);
    expect(socket.closedWith).toBe(1000);
  });

  it('reports a non-zero exit as NonZeroExitCode with an ExitCode cause', async () => {
    const { session } = await upgrade(`${PODS}/p/exec?command=sh&command=-c&command=exit%203&stdout=true&stderr=true`);
    const socket = new SocketDouble();
    session!.start(socket);
    (await started()).exit(3);
    await socket.until(() => socket.closedWith !== undefined);
    const status = JSON.parse(socket.messages().at(-1)![1]);
    expect(socket.messages().at(-1)![0]).toBe(3);
    expect(status).toEqual({
      metadata: {},
      status: 'Failure',
      message:
        'command terminated with non-zero exit code: command terminated with non-zero exit code: command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });

  it('with a TTY: everything on stdout, resizes reach the process, a client that leaves kills it', async () => {
    const { session } = await upgrade(`${PODS}/p/exec?command=sh&stdin=true&stdout=true&tty=true&stderr=true`);
    const socket = new SocketDouble();
    session!.start(socket);
    const process = await started();
    expect(process.options).toMatchObject({ tty: true, stdin: true });
    socket.clientSends(4, '{"Width":120,"Height":40}');
    process.output(2, '$ ');
    expect(process.sizes).toEqual([[120, 40]]);
    expect(socket.messages()).toEqual([
      [1, ''],
      [1, '$ '],
    ]);
    socket.clientGoesAway();
    expect(process.killed).toBe(true);
  });

  it("a command that cannot start, and a kubelet's refusal, end with an InternalError status", async () => {
    let { session } = await upgrade(`${PODS}/p/exec?command=nope&stdout=true`);
    let socket = new SocketDouble();
    session!.start(socket);
    (await started()).exit(128, 'failed to exec in container: exec: "nope": executable file not found in $PATH');
    await socket.until(() => socket.closedWith !== undefined);
    expect(JSON.parse(socket.messages().at(-1)![1])).toMatchObject({
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message:
        'Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: exec: "nope": executable file not found in $PATH',
    });

    kubelet.execError = new KubeletError(400, 'container not found ("app")');
    ({ session } = await upgrade(`${PODS}/p/exec?command=ls&stdout=true`));
    socket = new SocketDouble();
    session!.start(socket);
    await socket.until(() => socket.closedWith !== undefined);
    expect(JSON.parse(socket.messages().at(-1)![1]).message).toBe('Internal error occurred: unable to upgrade connection: container not found ("app")');
  });

  it('a node whose kubelet does not answer: the dial fails after the upgrade', async () => {
    await t.post(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' }, spec: { nodeName: 'stopped', containers: [{ name: 'app', image: 'busybox' }] } });
    const { session } = await upgrade(`${PODS}/q/exec?command=ls&stdout=true`);
    const socket = new SocketDouble();
    session!.start(socket);
    await socket.until(() => socket.closedWith !== undefined);
    expect(JSON.parse(socket.messages().at(-1)![1]).message).toBe(
      'Internal error occurred: error dialing backend: dial tcp 172.18.0.4:10250: connect: connection refused',
    );
  });
});

describe('errors before the upgrade', () => {
  it('answers as HTTP: a missing pod, a wrong container, a pod on no node, no upgrade at all', async () => {
    expect((await upgrade(`${PODS}/missing/exec?command=ls&stdout=true`)).response.status).toBe(404);
    const wrong = await upgrade(`${PODS}/p/exec?command=ls&stdout=true&container=x`);
    expect(wrong.session).toBeUndefined();
    expect(((await wrong.response.json()) as { message: string }).message).toBe('container x is not valid for pod p');
    await t.post(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
    const pending = await upgrade(`${PODS}/pending/attach?stdout=true`);
    expect(((await pending.response.json()) as { message: string }).message).toBe('pod pending does not have a host assigned');
    const plain = await t.request('POST', `${PODS}/p/exec?command=ls&stdout=true`);
    expect(plain.status).toBe(400);
    expect(plain.body.message).toBe('Upgrade request required');
    const v1 = await upgrade(`${PODS}/p/exec?command=ls&stdout=true`, ['channel.k8s.io']);
    expect(v1.response.status).toBe(403);
  });
});

describe('attach over v4.channel.k8s.io', () => {
  it('attaches before the upgrade and ends with Success when the process ends', async () => {
    const { session } = await upgrade(`${PODS}/p/attach?stdout=true&stderr=true`, ['v4.channel.k8s.io']);
    expect(kubelet.processes).toHaveLength(1);
    const socket = new SocketDouble();
    session!.start(socket);
    const process = kubelet.processes[0]!;
    process.output(1, 'log line\n');
    process.exit(1);
    await socket.until(() => socket.closedWith !== undefined);
    expect(socket.messages()).toEqual([
      [1, ''],
      [1, 'log line\n'],
      [3, '{"metadata":{},"status":"Success"}'],
    ]);
  });
});
