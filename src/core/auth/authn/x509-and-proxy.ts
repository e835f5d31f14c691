// Client certificates and the authenticating proxy. Certificate chains are
// verified by the host (TLS under Node; a reserved header in the browser,
// checked the same way); these authenticators turn a verified certificate
// into a user:
// - client certificate (--client-ca-file): CN is the username, each O a group;
//   a certificate without CN is not recognised;
// - request header (--requestheader-*): only when the proxy's certificate was
//   verified and, if --requestheader-allowed-names is set, its CN is listed;
//   the first username header with a value is the user, every value of the
//   group headers a group, and headers starting with an extra prefix give
//   extra keys (prefix removed, lower-cased, percent-decoded).

import type { AuthnRequest, AuthnResult, RequestAuthenticator } from '../types';

/**
 * A request whose host also says why a presented certificate did not verify
 * (kube's x509 authenticators then answer with an error, not "none": a client
 * that presents a bad certificate and nothing else gets 401). The text names
 * the certificate, never anything secret.
 */
export interface CertificateAuthnRequest extends AuthnRequest {
  /** Set when a certificate was presented and did not verify against --client-ca-file. */
  readonly clientCertificateError?: string;
  /** Set when a certificate was presented and did not verify against --requestheader-client-ca-file. */
  readonly requestHeaderCertificateError?: string;
}

export function createX509Authenticator(): RequestAuthenticator {
  return {
    name: 'x509',
    authenticateRequest(req: CertificateAuthnRequest): AuthnResult {
      const cert = req.clientCertificate;
      if (!cert) return req.clientCertificateError ? { status: 'error', authenticator: 'x509', error: req.clientCertificateError } : { status: 'none' };
      // kube's CommonNameUserConversion: a certificate without CN names nobody.
      if (!cert.commonName) return { status: 'none' };
      return { status: 'ok', authenticator: 'x509', user: { username: cert.commonName, groups: [...cert.organizations] } };
    },
  };
}

export interface RequestHeaderConfig {
  /** --requestheader-username-headers (required). */
  readonly usernameHeaders: readonly string[];
  /** --requestheader-uid-headers (beta in 1.32). */
  readonly uidHeaders?: readonly string[];
  readonly groupHeaders?: readonly string[];
  readonly extraHeaderPrefixes?: readonly string[];
  /** --requestheader-allowed-names; empty allows any verified proxy. */
  readonly allowedNames?: readonly string[];
}

function decodeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

export function createRequestHeaderAuthenticator(config: RequestHeaderConfig): RequestAuthenticator {
  return {
    name: 'requestheader',
    authenticateRequest(req: CertificateAuthnRequest): AuthnResult {
      const proxy = req.requestHeaderCertificate;
      if (!proxy) return req.requestHeaderCertificateError ? { status: 'error', authenticator: 'requestheader', error: req.requestHeaderCertificateError } : { status: 'none' };
      if (config.allowedNames?.length && !config.allowedNames.includes(proxy.commonName)) {
        return { status: 'error', authenticator: 'requestheader', error: `x509: subject with cn=${proxy.commonName} is not in the allowed list` };
      }
      let username = '';
      for (const h of config.usernameHeaders) {
        const v = req.header(h)?.trim();
        if (v) {
          username = v;
          break;
        }
      }
      if (!username) return { status: 'none' };
      let uid = '';
      for (const h of config.uidHeaders ?? []) {
        const v = req.header(h)?.trim();
        if (v) {
          uid = v;
          break;
        }
      }
      const groups: string[] = [];
      for (const h of config.groupHeaders ?? []) groups.push(...req.headerValues(h));
      const extra: Record<string, string[]> = {};
      for (const name of req.headerNames()) {
        for (const prefix of config.extraHeaderPrefixes ?? []) {
          const p = prefix.toLowerCase();
          if (!name.startsWith(p)) continue;
          const key = decodeExtraKey(name.slice(p.length).toLowerCase());
          (extra[key] ??= []).push(...req.headerValues(name));
        }
      }
      return {
        status: 'ok',
        authenticator: 'requestheader',
        user: { username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) },
      };
    },
  };
}
