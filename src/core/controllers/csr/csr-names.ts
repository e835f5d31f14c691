// Shared by the three CSR controllers: the resource, condition readers and
// the kube-controller-manager service account they act as.

import type { KubeObject } from '../../kinds/types';
import type { GroupVersionResource } from '../client/resource-path';
import { arr, rec, str } from '../scheduler/objects';

export const CSRS: GroupVersionResource = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' };

export interface CSRCondition {
  readonly type: string;
  readonly status: string;
  readonly lastUpdateTime?: string;
  readonly lastTransitionTime?: string;
}

export function conditionsOf(csr: KubeObject): CSRCondition[] {
  return arr(rec(csr.status).conditions).map((c) => {
    const r = rec(c);
    return { type: str(r.type), status: str(r.status), lastUpdateTime: str(r.lastUpdateTime) || undefined, lastTransitionTime: str(r.lastTransitionTime) || undefined };
  });
}

const hasTrue = (csr: KubeObject, type: string) => conditionsOf(csr).some((c) => c.type === type && c.status === 'True');

/** IsCertificateRequestApproved: Approved and not Denied. */
export const isApproved = (csr: KubeObject): boolean => hasTrue(csr, 'Approved') && !hasTrue(csr, 'Denied');
export const isDenied = (csr: KubeObject): boolean => hasTrue(csr, 'Denied');
export const isFailed = (csr: KubeObject): boolean => hasTrue(csr, 'Failed');
export const isIssued = (csr: KubeObject): boolean => !!str(rec(csr.status).certificate);

/** The CSR's spec.request as PEM text (the field is base64 of the PEM bytes). */
export function requestPem(csr: KubeObject): string {
  const b64 = str(rec(csr.spec).request);
  try {
    return atob(b64);
  } catch {
    return '';
  }
}

export const usagesOf = (csr: KubeObject): string[] => arr(rec(csr.spec).usages).map(String);
