// Service account issuer discovery (kube-apiserver's
// /.well-known/openid-configuration and /openid/v1/jwks): what a relying
// party needs to verify service-account tokens itself. Readable by
// system:serviceaccounts (system:service-account-issuer-discovery) and by
// whoever RBAC lets get these paths.

import { publicJwks } from '../../auth';
import type { AccessControl } from './access-control';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

const HEADERS = { 'Cache-Control': 'public, max-age=3600' };

export async function handleIssuerDiscovery(access: AccessControl, path: string, url: URL, flags: Readonly<Record<string, string>>): Promise<Response | undefined> {
  if (path !== OPENID_CONFIGURATION_PATH && path !== JWKS_PATH) return undefined;
  const keys = await access.serviceAccountKeys();
  if (path === OPENID_CONFIGURATION_PATH) {
    // --service-account-jwks-uri, else the server's own address.
    const jwksUri = flags['service-account-jwks-uri'] || `https://${url.host}${JWKS_PATH}`;
    const algs = [...new Set(keys.verification.map((k) => k.alg))].sort();
    const doc = {
      issuer: access.config.serviceAccounts.issuers[0],
      jwks_uri: jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: algs,
    };
    return new Response(JSON.stringify(doc), { status: 200, headers: { 'Content-Type': 'application/json', ...HEADERS } });
  }
  if (path === JWKS_PATH) {
    return new Response(JSON.stringify(await publicJwks(keys)), { status: 200, headers: { 'Content-Type': 'application/jwk-set+json', ...HEADERS } });
  }
  return undefined;
}
