// kube's channel protocol over WebSocket for exec and attach (remotecommand
// v4/v5 over wsstream): every binary message is one channel byte and that
// channel's data. Channels: 0 stdin, 1 stdout, 2 stderr, 3 error (the final
// metav1.Status as JSON), 4 resize (JSON {"Width":…,"Height":…}); v5 adds
// 255, "close": a client's [255, n] ends its channel n (stdin's EOF while the
// connection stays open for the output). kube-apiserver 1.32 translates a
// v5.channel.k8s.io WebSocket itself; a v4.channel.k8s.io one it passes to
// the container runtime's own server, which speaks the same framing without
// the close channel.

export const PROTOCOL_V5 = 'v5.channel.k8s.io';
export const PROTOCOL_V4 = 'v4.channel.k8s.io';
/** The protocols served, in the server's order of preference. */
export const CHANNEL_PROTOCOLS: readonly string[] = [PROTOCOL_V5, PROTOCOL_V4];

export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
export const RESIZE = 4;
export const CLOSE = 255;

/** The first of the client's protocols the server speaks (wsstream goes through the client's list in order). */
export function negotiateChannelProtocol(offered: readonly string[]): string | undefined {
  return offered.find((p) => CHANNEL_PROTOCOLS.includes(p));
}

export function frame(channel: number, data: Uint8Array = new Uint8Array(0)): Uint8Array {
  const out = new Uint8Array(data.byteLength + 1);
  out[0] = channel;
  out.set(data, 1);
  return out;
}

/** A terminal size from the resize channel; undefined for anything else (kube's decoder stops at bad input). */
export function parseResize(data: Uint8Array): { width: number; height: number } | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(data)) as { Width?: unknown; Height?: unknown };
    const width = typeof value.Width === 'number' ? value.Width : 0;
    const height = typeof value.Height === 'number' ? value.Height : 0;
    return { width, height };
  } catch {
    return undefined;
  }
}

/** metav1.Status as Go's json.Marshal writes a StatusError's status: no kind or apiVersion, `metadata: {}`, code omitted when 0. */
export interface WireStatus {
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: { readonly causes?: readonly { readonly reason?: string; readonly message?: string }[] };
  readonly code?: number;
}

export function encodeStatus(status: WireStatus): Uint8Array {
  const out: Record<string, unknown> = { metadata: {}, status: status.status };
  if (status.message) out['message'] = status.message;
  if (status.reason) out['reason'] = status.reason;
  if (status.details) out['details'] = status.details;
  if (status.code) out['code'] = status.code;
  return new TextEncoder().encode(JSON.stringify(out));
}

export const SUCCESS: WireStatus = { status: 'Success' };

/** An InternalError status (apierrors.NewInternalError). */
export function internalErrorStatus(text: string): WireStatus {
  return { status: 'Failure', message: `Internal error occurred: ${text}`, reason: 'InternalError', details: { causes: [{ message: text }] }, code: 500 };
}

/**
 * A command's non-zero exit as the client reads it (reason NonZeroExitCode,
 * the code in an ExitCode cause). The message starts as containerd's error,
 * wrapped by the kubelet; through kube-apiserver's stream translator (v5) it
 * is wrapped twice more, by the translator's SPDY client and the translator.
 */
export function exitStatus(command: readonly string[], exitCode: number, translated: boolean): WireStatus {
  const prefix = 'command terminated with non-zero exit code: ';
  const runtime = `error executing command [${command.join(' ')}], exit code ${exitCode}`;
  return {
    status: 'Failure',
    message: `${translated ? prefix + prefix : ''}${prefix}${runtime}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

/**
 * A failure of the kubelet's own streaming server (the command could not be
 * started, the container could not be attached): an InternalError, which the
 * stream translator (v5) wraps once more in an InternalError of its own.
 */
export function kubeletFailureStatus(text: string, translated: boolean): WireStatus {
  const inner = internalErrorStatus(text);
  return translated ? internalErrorStatus(inner.message!) : inner;
}
