// kube-controller-manager's CSR approving controller (csrapproving): a
// pending request for kubernetes.io/kube-apiserver-client-kubelet that is a
// well-formed kubelet client certificate (O=system:nodes,
// CN=system:node:<name>, client usages, no SANs) is approved when a
// SubjectAccessReview says its requester may create
// certificatesigningrequests/selfnodeclient (renewing its own certificate:
// the CN is the requester) or …/nodeclient (a new node, e.g. a bootstrap
// token); kubeadm grants those to system:nodes and to its bootstrap token
// group. Anything else waits for a person (`kubectl certificate approve`).

import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { rec, str } from '../job/json';
import { certificateRequestFromPem, type CertificateRequest } from './certificate-request';
import { CSRS, conditionsOf, isIssued, requestPem, usagesOf } from './csr-names';
import { kubeletClientError, KUBE_APISERVER_CLIENT_KUBELET } from './signer-names';

export const CSR_APPROVING_CONTROLLER = 'certificatesigningrequest-approving-controller';
const SUBJECT_ACCESS_REVIEWS: GroupVersionResource = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' };

interface Recognizer {
  readonly subresource: 'selfnodeclient' | 'nodeclient';
  readonly recognize: (csr: KubeObject, req: CertificateRequest) => boolean;
  readonly successMessage: string;
}

const isNodeClientCert = (csr: KubeObject, req: CertificateRequest): boolean =>
  str(rec(csr.spec).signerName) === KUBE_APISERVER_CLIENT_KUBELET && kubeletClientError(req, usagesOf(csr)) === undefined;

export const RECOGNIZERS: readonly Recognizer[] = [
  {
    subresource: 'selfnodeclient',
    recognize: (csr, req) => isNodeClientCert(csr, req) && str(rec(csr.spec).username) === req.commonName,
    successMessage: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  { subresource: 'nodeclient', recognize: isNodeClientCert, successMessage: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
];

export function csrApprovingController(ctx: ControllerContext): Controller {
  const csrs = ctx.informers.for(CSRS);
  const unsubscribe: (() => void)[] = [];

  const pending = (csr: KubeObject): boolean =>
    !isIssued(csr) && !conditionsOf(csr).some((c) => c.type === 'Approved' || c.type === 'Denied') && str(rec(csr.spec).signerName) === KUBE_APISERVER_CLIENT_KUBELET;

  /** The requester may create certificatesigningrequests/<subresource>. */
  const authorized = async (csr: KubeObject, subresource: string): Promise<boolean> => {
    const spec = rec(csr.spec);
    const review = await ctx.client.create(SUBJECT_ACCESS_REVIEWS, '', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: str(spec.username),
        uid: str(spec.uid),
        groups: Array.isArray(spec.groups) ? spec.groups : [],
        ...(spec.extra ? { extra: spec.extra } : {}),
        resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', verb: 'create', subresource, version: '*' },
      },
    });
    return rec(review.status).allowed === true;
  };

  const queue = new WorkQueue(
    CSR_APPROVING_CONTROLLER,
    ctx.activity,
    async (name) => {
      const csr = csrs.get('', name);
      if (!csr || !pending(csr)) return;
      let request: CertificateRequest;
      try {
        request = certificateRequestFromPem(requestPem(csr));
      } catch (err) {
        throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${err instanceof Error ? err.message : String(err)}`);
      }
      for (const r of RECOGNIZERS) {
        if (!r.recognize(csr, request)) continue;
        if (!(await authorized(csr, r.subresource))) continue;
        const status = rec(csr.status);
        const approved = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.successMessage };
        try {
          await ctx.client.update(CSRS, '', { ...csr, status: { ...status, conditions: [...(Array.isArray(status.conditions) ? status.conditions : []), approved] } }, 'approval');
        } catch (err) {
          if (isConflict(err) || isNotFound(err)) return;
          throw new Error(`error updating approval for csr: ${err instanceof Error ? err.message : String(err)}`);
        }
        return;
      }
      // Recognized but not authorized (or not a kubelet client certificate): left for a person.
    },
    ctx.log,
  );
  const enqueue = (csr: KubeObject) => {
    if (pending(csr)) queue.add(csr.metadata?.name ?? '');
  };

  return {
    name: CSR_APPROVING_CONTROLLER,
    start() {
      void csrs.synced.then(() => {
        unsubscribe.push(csrs.addHandler({ onAdd: enqueue, onUpdate: (_old, cur) => enqueue(cur) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
