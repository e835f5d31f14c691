// The built-in signers of kube-controller-manager's CSR signing controller
// and what each will sign (certificates/signer and the capihelper
// validators): a request for a signer it does not recognize is left alone;
// a recognized one that breaks the signer's rules is marked Failed with
// reason SignerValidationFailure and the validator's message.

import type { CertificateRequest } from './certificate-request';

export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
export const LEGACY_UNKNOWN = 'kubernetes.io/legacy-unknown';

/** The signers this controller issues for (legacy-unknown is not one of them). */
export const SIGNED_BY_CONTROLLER: readonly string[] = [KUBE_APISERVER_CLIENT, KUBE_APISERVER_CLIENT_KUBELET, KUBELET_SERVING];

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
};

const KUBELET_CLIENT_USAGES = ['client auth', 'digital signature', 'key encipherment'];
const KUBELET_CLIENT_USAGES_NO_RSA = ['client auth', 'digital signature'];
const KUBELET_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

/** ValidateKubeletClientCSR: the error, or undefined. */
export function kubeletClientError(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (req.dnsNames.length) return 'dnsNames subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'ipAddresses subjectAltNames are not allowed';
  if (req.uris.length) return 'uri subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, KUBELET_CLIENT_USAGES) && !sameSet(usages, KUBELET_CLIENT_USAGES_NO_RSA)) return `usages did not match [${KUBELET_CLIENT_USAGES.join(' ')}]`;
  return undefined;
}

/** ValidateKubeletServingCSR. */
export function kubeletServingError(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (req.emailAddresses.length) return 'email subjectAltNames are not allowed';
  if (req.uris.length) return 'uri subjectAltNames are not allowed';
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, KUBELET_SERVING_USAGES) && !sameSet(usages, KUBELET_SERVING_USAGES_NO_RSA)) return `usages did not match [${KUBELET_SERVING_USAGES.join(' ')}]`;
  return undefined;
}

/** validAPIServerClientUsages. */
export function apiServerClientError(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** Whether the request is for a signer of ours, and if so what is wrong with it (undefined: sign it). */
export function signerValidation(signerName: string, req: CertificateRequest, usages: readonly string[]): { recognized: boolean; error?: string } {
  let error: string | undefined;
  switch (signerName) {
    case KUBE_APISERVER_CLIENT:
      error = apiServerClientError(usages);
      break;
    case KUBE_APISERVER_CLIENT_KUBELET:
      error = kubeletClientError(req, usages);
      break;
    case KUBELET_SERVING:
      error = kubeletServingError(req, usages);
      break;
    default:
      return { recognized: false };
  }
  return error ? { recognized: true, error } : { recognized: true };
}
