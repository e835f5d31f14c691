// The verified client certificate of a request (decision 0180). A host that
// terminates TLS (Node) verifies the peer's chain against --client-ca-file and
// --requestheader-client-ca-file and attaches the outcome to the Fetch Request
// it passes to `ApiServer.handle` — keyed by the Request object itself, like a
// value of Go's request context, so no client can forge it. A host without
// TLS (the browser) lets the page present its chain in the header reserved for
// it, X-Kubetab-Client-Certificate (base64 DER certificates, leaf first,
// comma-separated), verified here the same way with WebCrypto; the Node host
// removes that header from every request it receives.

import { parseCertificate, verifyClientCertificateChain, type Certificate } from '../../auth/authn/x509-verify';
import { base64ToBytes } from '../../auth/authn/secret-data';

export interface VerifiedCertificateSubject {
  readonly commonName: string;
  readonly organizations: readonly string[];
}

export interface PeerCertificates {
  /** The leaf's subject, when its chain verified against --client-ca-file. */
  readonly clientCertificate?: VerifiedCertificateSubject;
  /** Why a presented certificate did not verify against --client-ca-file. */
  readonly clientCertificateError?: string;
  /** The leaf's subject, when its chain verified against --requestheader-client-ca-file. */
  readonly requestHeaderCertificate?: VerifiedCertificateSubject;
  /** Why a presented certificate did not verify against --requestheader-client-ca-file. */
  readonly requestHeaderCertificateError?: string;
}

const peers = new WeakMap<Request, PeerCertificates>();
const remoteAddresses = new WeakMap<Request, string>();

/** For hosts: the address the request's connection came from (the audit event's sourceIPs). */
export function attachRemoteAddress(request: Request, address: string): void {
  remoteAddresses.set(request, address);
}

/**
 * utilnet.SourceIPs: the X-Forwarded-For addresses, then X-Real-Ip, then the
 * connection's address, each once, as kube-apiserver's audit events list them.
 */
export function sourceIPsOf(request: Request): string[] {
  const ips: string[] = [];
  const add = (ip: string | null | undefined) => {
    const v = ip?.trim();
    if (v && !ips.includes(v)) ips.push(v);
  };
  for (const ip of (request.headers.get('x-forwarded-for') ?? '').split(',')) add(ip);
  add(request.headers.get('x-real-ip'));
  add(remoteAddresses.get(request));
  return ips;
}

/** For hosts: the outcome of verifying this request's TLS client certificate. */
export function attachPeerCertificates(request: Request, peer: PeerCertificates): void {
  peers.set(request, peer);
}

export function peerCertificatesOf(request: Request): PeerCertificates | undefined {
  return peers.get(request);
}

/** The header a browser page presents its certificate chain in. Never honoured under Node (the adapter strips it). */
export const CLIENT_CERTIFICATE_HEADER = 'X-Kubetab-Client-Certificate';

export interface CertificateTrust {
  readonly clientCA?: readonly Certificate[];
  readonly requestHeaderCA?: readonly Certificate[];
}

async function verifyAgainst(chain: readonly Certificate[], roots: readonly Certificate[] | undefined, now: number): Promise<{ subject?: VerifiedCertificateSubject; error?: string } | undefined> {
  if (!roots) return undefined;
  const error = await verifyClientCertificateChain(chain, roots, now);
  const leaf = chain[0]!;
  if (error) return { error: `verifying certificate SN=${leaf.serialNumber.toString(10)} failed: ${error}` };
  return { subject: { commonName: leaf.commonName, organizations: [...leaf.organizations] } };
}

/** What a presented chain (the reserved header's value) verifies as, against both bundles. */
export async function verifyPresentedCertificates(headerValue: string, trust: CertificateTrust, now: number): Promise<PeerCertificates | undefined> {
  if (!trust.clientCA && !trust.requestHeaderCA) return undefined;
  let chain: Certificate[];
  try {
    chain = headerValue.split(',').map((b) => parseCertificate(base64ToBytes(b.trim())));
  } catch (err) {
    const error = `x509: malformed certificate: ${err instanceof Error ? err.message : String(err)}`;
    return { ...(trust.clientCA ? { clientCertificateError: error } : {}), ...(trust.requestHeaderCA ? { requestHeaderCertificateError: error } : {}) };
  }
  if (chain.length === 0) return undefined;
  const client = await verifyAgainst(chain, trust.clientCA, now);
  const proxy = await verifyAgainst(chain, trust.requestHeaderCA, now);
  return {
    ...(client?.subject ? { clientCertificate: client.subject } : {}),
    ...(client?.error ? { clientCertificateError: client.error } : {}),
    ...(proxy?.subject ? { requestHeaderCertificate: proxy.subject } : {}),
    ...(proxy?.error ? { requestHeaderCertificateError: proxy.error } : {}),
  };
}

/**
 * Verifications of presented chains, remembered for a minute (a page sends
 * the same header with every request; validity is re-checked after that).
 */
export function createCertificateHeaderVerifier(trust: CertificateTrust, now: () => number): (headerValue: string) => Promise<PeerCertificates | undefined> {
  const cache = new Map<string, { at: number; peer: Promise<PeerCertificates | undefined> }>();
  return (headerValue) => {
    const t = now();
    const hit = cache.get(headerValue);
    if (hit && t - hit.at < 60_000) return hit.peer;
    if (cache.size >= 256) cache.clear();
    const peer = verifyPresentedCertificates(headerValue, trust, t);
    cache.set(headerValue, { at: t, peer });
    return peer;
  };
}
