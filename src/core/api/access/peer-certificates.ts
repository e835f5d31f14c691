// The verified client certificate of a request, handed from the host to the
// core outside HTTP (decision 0180). A host that terminates TLS verifies the
// peer's chain against --client-ca-file and --requestheader-client-ca-file and
// attaches the outcome to the Fetch Request it passes to `ApiServer.handle`;
// the filters read it from here and nowhere else. Keyed by the Request object
// itself, like a value of Go's request context: no header, so a client cannot
// forge it, and it goes away with the request.

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

/** For hosts: the outcome of verifying this request's TLS client certificate. */
export function attachPeerCertificates(request: Request, peer: PeerCertificates): void {
  peers.set(request, peer);
}

export function peerCertificatesOf(request: Request): PeerCertificates | undefined {
  return peers.get(request);
}
