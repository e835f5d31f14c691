// The certificates.k8s.io plugins. CertificateApproval: approving or denying
// a request (the approval subresource) needs the "approve" verb on the
// request's signer (signers, certificates.k8s.io, the signer's name or
// "<domain>/*"). CertificateSigning: setting status.certificate needs "sign".
// CertificateSubjectRestriction: no kubernetes.io/kube-apiserver-client
// request may ask for the system:masters group.

import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { csrDer, subjectOrganizations } from './csr-subject';
import { isObj } from './pod-helpers';

const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';

const isCsr = (attrs: AdmissionAttributes) => attrs.resource.group === 'certificates.k8s.io' && attrs.resource.resource === 'certificatesigningrequests';
const signerOf = (obj: unknown): string => (isObj(obj) && isObj(obj['spec']) ? String(obj['spec']['signerName'] ?? '') : '');

/** kube's IsAuthorizedForSignerName: the signer by name, else every signer of its domain. */
async function authorizedForSigner(attrs: AdmissionAttributes, ctx: AdmissionContext, verb: string, signerName: string): Promise<boolean> {
  if (!ctx.authorize || !attrs.user) return true;
  const ask = async (name: string) =>
    (
      await ctx.authorize!({
        user: attrs.user!,
        verb,
        resourceRequest: true,
        namespace: '',
        apiGroup: 'certificates.k8s.io',
        apiVersion: '*',
        resource: 'signers',
        subresource: '',
        name,
        path: '',
      })
    ).decision === 'Allow';
  if (await ask(signerName)) return true;
  return ask(`${signerName.split('/')[0]}/*`);
}

export function certificateApproval(): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    handles: (op) => op === 'UPDATE',
    async validate(attrs, ctx) {
      if (!isCsr(attrs) || attrs.subresource !== 'approval') return;
      const signer = signerOf(attrs.oldObject);
      if (!(await authorizedForSigner(attrs, ctx, 'approve', signer))) {
        throw admissionForbidden(attrs, `user not permitted to approve requests with signerName ${JSON.stringify(signer)}`);
      }
    },
  };
}

export function certificateSigning(): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    handles: (op) => op === 'UPDATE',
    async validate(attrs, ctx) {
      if (!isCsr(attrs) || attrs.subresource !== 'status') return;
      const certificate = (o: unknown) => (isObj(o) && isObj(o['status']) ? (o['status']['certificate'] ?? '') : '');
      if (certificate(attrs.object) === certificate(attrs.oldObject)) return;
      const signer = signerOf(attrs.oldObject);
      if (!(await authorizedForSigner(attrs, ctx, 'sign', signer))) {
        throw admissionForbidden(attrs, `user not permitted to sign requests with signerName ${JSON.stringify(signer)}`);
      }
    },
  };
}

export function certificateSubjectRestriction(): AdmissionPlugin {
  return {
    name: 'CertificateSubjectRestriction',
    handles: (op) => op === 'CREATE',
    validate(attrs) {
      if (!isCsr(attrs) || attrs.subresource || signerOf(attrs.object) !== KUBE_APISERVER_CLIENT) return;
      const request = isObj(attrs.object?.['spec']) ? String(attrs.object['spec']['request'] ?? '') : '';
      let orgs: string[];
      try {
        orgs = subjectOrganizations(csrDer(atob(request)));
      } catch (err) {
        throw admissionForbidden(attrs, `failed to parse CSR: ${(err as Error).message}`);
      }
      if (orgs.includes('system:masters')) {
        throw admissionForbidden(attrs, `use of ${KUBE_APISERVER_CLIENT} signer with system:masters group is not allowed`);
      }
    },
  };
}
