// pods/exec, pods/attach and pods/portforward: kube's connect handlers. In
// kube's order: admission of the CONNECT (with PodExecOptions etc.), the pod,
// its container and its node (streamLocation / PortForwardLocation, with
// their messages), then the connection itself. A request that is not a
// WebSocket upgrade gets kube's `Upgrade request required`; one that is gets
// a session the host connects to the socket (streaming/upgrade.ts):
// exec/attach speak the channel protocol (v5.channel.k8s.io, which
// kube-apiserver 1.32 translates itself, or v4.channel.k8s.io), port-forward
// tunnels SPDY (SPDY/3.1+portforward.k8s.io), both against the kubelet of the
// pod's node as a KubeletConnection.

import { StatusError, errors } from '../../errors/status';
import type { SubresourceDefinition } from '../../kinds/types';
import { KubeletError, type PortStream, type StreamSession } from '../../kubelet/connection';
import type { RequestScope, ServerContext } from '../context';
import { queryBool } from '../query-bool';
import { admitConnect } from './connect-admission';
import { PROTOCOL_V5, negotiateChannelProtocol } from '../streaming/channel-protocol';
import { chooseContainer, dialRefused, kubeletTarget, podRef, podSpec, readPod, type KubeletTarget } from '../streaming/kubelet-location';
import { DialError, keepingOutput, remoteCommandSession, type RemoteCommandStreams } from '../streaming/remote-command-session';
import { acceptUpgrade, upgradeOfferOf, type PortForwardSession } from '../streaming/upgrade';

/** The WebSocket subprotocol kubectl tunnels port-forward's SPDY in. */
export const PORT_FORWARD_TUNNEL_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';

function streamsOf(query: URLSearchParams): RemoteCommandStreams {
  const flag = (name: string) => queryBool(query.get(name)) ?? false;
  const tty = flag('tty');
  // The kubelet drops stderr under a TTY (the terminal merges the streams).
  return { stdin: flag('stdin'), stdout: flag('stdout'), stderr: flag('stderr') && !tty, tty };
}

export async function handleUpgradeRequired(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  await admitConnect(ctx, scope, sub);
  const { route, query, request } = scope;
  const pod = await readPod(ctx, scope);
  const portForward = sub.name === 'portforward';
  const container = portForward ? '' : chooseContainer(pod, query.get('container') ?? '');
  const nodeName = podSpec(pod).nodeName;
  if (!nodeName) throw errors.badRequest(`pod ${route.name} does not have a host assigned`);
  const target = await kubeletTarget(ctx, nodeName);
  const offer = upgradeOfferOf(request);
  if (!offer) throw errors.badRequest('Upgrade request required');

  if (portForward) {
    if (!offer.protocols.includes(PORT_FORWARD_TUNNEL_PROTOCOL)) throw errors.badRequest('unable to upgrade: no tunneling spdy protocols provided');
    // kube-apiserver dials the kubelet before it answers the upgrade.
    if (!target.connection) throw new StatusError(500, '', `error dialing backend: ${dialRefused(target.address)}`);
    return acceptUpgrade(request, portForwardSession(target, pod));
  }

  const protocol = negotiateChannelProtocol(offer.protocols);
  // wsstream's handshake refuses other protocols with a bare 403.
  if (!protocol) throw new StatusError(403, 'Forbidden', `requested protocol(s) are not supported: [${offer.protocols.join(' ')}]; supports [v5.channel.k8s.io v4.channel.k8s.io]`);
  const streams = streamsOf(query);
  const command = query.getAll('command');
  const ref = podRef(pod);
  const start = (): Promise<StreamSession> => {
    const connection = target.connection;
    if (!connection) return Promise.reject(new DialError(dialRefused(target.address)));
    if (!streams.stdin && !streams.stdout && !streams.stderr) {
      return Promise.reject(new KubeletError(400, 'you must specify at least 1 of stdin, stdout, stderr'));
    }
    return sub.name === 'exec'
      ? connection.exec(ref, { container, command, stdin: streams.stdin, tty: streams.tty })
      : connection.attach(ref, { container, stdin: streams.stdin, tty: streams.tty });
  };
  let open = start;
  if (protocol !== PROTOCOL_V5) {
    // v4 is proxied to the runtime's own server: a kubelet that cannot be reached or refuses answers before the upgrade.
    if (!target.connection) throw new StatusError(500, '', `error dialing backend: ${dialRefused(target.address)}`);
    let started: StreamSession;
    try {
      started = await start();
    } catch (error) {
      if (error instanceof KubeletError) throw new StatusError(error.code, '', error.message);
      throw error;
    }
    const kept = keepingOutput(started);
    open = () => Promise.resolve(kept);
  }
  return acceptUpgrade(request, remoteCommandSession({ kind: sub.name === 'exec' ? 'exec' : 'attach', protocol, streams, command, open }));
}

function portForwardSession(target: KubeletTarget, pod: Parameters<typeof podRef>[0]): PortForwardSession {
  const open = new Set<PortStream>();
  let ended = false;
  return {
    kind: 'portforward',
    protocol: PORT_FORWARD_TUNNEL_PROTOCOL,
    async forward(port: number): Promise<PortStream> {
      const connection = target.connection;
      if (!connection || ended) throw new Error(dialRefused(target.address));
      let stream: PortStream;
      try {
        stream = await connection.portForward(podRef(pod), port);
      } catch (error) {
        // The kubelet's message goes on the port's error stream as it is.
        throw new Error(error instanceof Error ? error.message : String(error));
      }
      open.add(stream);
      void stream.closed.finally(() => open.delete(stream));
      return stream;
    },
    end() {
      ended = true;
      for (const stream of open) stream.end();
      open.clear();
    },
  };
}
