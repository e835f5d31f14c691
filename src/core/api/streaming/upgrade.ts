// Connection upgrades between a host and the core (pods/exec, attach,
// portforward). The core answers Fetch Requests with Responses, which cannot
// say "101 Switching Protocols"; so a host that can take a WebSocket marks the
// request with what the client offered (`offerUpgrade`), the core runs the
// request through its whole pipeline (authentication, authorization,
// admission, the pod and container lookups) and, when all is well, accepts
// with a session (`acceptUpgrade`) that the host then connects to its socket.
// Any other outcome is an ordinary error Response, sent as plain HTTP.
//
// Like the peer certificates (access/peer-certificates.ts), the marks are
// keyed by the Request object itself: no client can forge them with a header.
// The core never sees WebSocket frames: a session speaks in whole binary
// messages (`MessageSocket`), the host does the framing.

import type { PortStream } from '../../kubelet/connection';

/** What the client asked for in its upgrade request. */
export interface UpgradeOffer {
  /** Sec-WebSocket-Protocol values, in the client's order. */
  readonly protocols: readonly string[];
}

/** One WebSocket as a session sees it: whole binary messages in and out. */
export interface MessageSocket {
  send(data: Uint8Array): void;
  /** Ends the connection with a WebSocket close code (1000: normal closure). */
  close(code?: number, reason?: string): void;
  onMessage(listener: (data: Uint8Array) => void): void;
  /** The connection is gone (closed by either side, or broken). */
  onClose(listener: () => void): void;
}

/** exec and attach: kube's channel protocol (a channel byte before each message's data), spoken by the core. */
export interface ChannelSession {
  readonly kind: 'channels';
  /** The subprotocol to answer in the handshake. */
  readonly protocol: string;
  start(socket: MessageSocket): void;
}

/**
 * port-forward: SPDY/3.1 tunnelled in the WebSocket's byte stream, as
 * kube-apiserver tunnels the kubelet's SPDY port-forward server. The framing
 * (and its zlib header compression) is the host's; each forwarded connection
 * the client opens becomes one `forward` call.
 */
export interface PortForwardSession {
  readonly kind: 'portforward';
  readonly protocol: string;
  /**
   * A connection to the pod's port. Rejects with the message the kubelet
   * writes on the port's error stream.
   */
  forward(port: number): Promise<PortStream>;
  /** The client has gone: forwarded connections still open are ended. */
  end(): void;
}

export type UpgradeSession = ChannelSession | PortForwardSession;

const offers = new WeakMap<Request, UpgradeOffer>();
const accepted = new WeakMap<Request, UpgradeSession>();

/** Host: the request came with `Connection: Upgrade`, `Upgrade: websocket`. */
export function offerUpgrade(request: Request, offer: UpgradeOffer): void {
  offers.set(request, offer);
}

export function upgradeOfferOf(request: Request): UpgradeOffer | undefined {
  return offers.get(request);
}

/**
 * Core: the request may switch protocols. The Response returned stands for
 * the 101 the host sends instead; it is never written as HTTP.
 */
export function acceptUpgrade(request: Request, session: UpgradeSession): Response {
  accepted.set(request, session);
  return new Response(null, { status: 200 });
}

/** Host: the session the core accepted the request with, if it did. */
export function acceptedUpgradeOf(request: Request): UpgradeSession | undefined {
  return accepted.get(request);
}
