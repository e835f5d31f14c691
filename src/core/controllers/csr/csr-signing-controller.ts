// kube-controller-manager's CSR signing controller (csrsigning): an approved,
// not failed, not yet issued request for one of the built-in signers
// (kube-apiserver-client, kube-apiserver-client-kubelet, kubelet-serving)
// gets a certificate from the cluster signing CA in status.certificate; one
// that breaks its signer's rules gets a Failed condition
// (SignerValidationFailure). Requests for other signers (legacy-unknown,
// anyone's own) are left to their signers. Without a signing CA the
// controller does not start, as kube-controller-manager without
// --cluster-signing-cert-file/--cluster-signing-key-file.

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { num, rec, str } from '../job/json';
import { certificateRequestFromPem, checkSignature } from './certificate-request';
import { CSRS, isApproved, isFailed, isIssued, requestPem, usagesOf } from './csr-names';
import { issueCertificate } from './issue-certificate';
import { signerValidation, SIGNED_BY_CONTROLLER } from './signer-names';
import { loadSigningCA, type ClusterSigningOptions, type SigningCA } from './signing-ca';
import { certificateDuration, keyUsagesFromStrings, validity } from './signing-policy';

export const CSR_SIGNING_CONTROLLER = 'certificatesigningrequest-signing-controller';

export function csrSigningController(ctx: ControllerContext, options: ClusterSigningOptions = {}): Controller {
  const keyPair = options.keyPair;
  if (!keyPair) {
    return {
      name: CSR_SIGNING_CONTROLLER,
      start: () => ctx.log('skipping CSR signer controller because no csr cert/key was specified'),
      stop: async () => undefined,
    };
  }
  const csrs = ctx.informers.for(CSRS);
  const unsubscribe: (() => void)[] = [];
  let ca: Promise<SigningCA> | undefined;
  const signingCA = (): Promise<SigningCA> => {
    ca ??= keyPair()
      .then(loadSigningCA)
      .catch((err: unknown) => {
        ca = undefined;
        throw err;
      });
    return ca;
  };

  const wanted = (csr: KubeObject): boolean =>
    isApproved(csr) && !isFailed(csr) && !isIssued(csr) && SIGNED_BY_CONTROLLER.includes(str(rec(csr.spec).signerName));

  const updateStatus = async (csr: KubeObject, status: Record<string, unknown>): Promise<void> => {
    try {
      await ctx.client.update(CSRS, '', { ...csr, status }, 'status');
    } catch (err) {
      // A newer request (or none) is on its way through the informer.
      if (isConflict(err) || isNotFound(err)) return;
      throw err;
    }
  };

  const queue = new WorkQueue(
    CSR_SIGNING_CONTROLLER,
    ctx.activity,
    async (name) => {
      const csr = csrs.get('', name);
      if (!csr || !wanted(csr)) return;
      let request;
      try {
        request = certificateRequestFromPem(requestPem(csr));
      } catch (err) {
        throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${err instanceof Error ? err.message : String(err)}`);
      }
      const usages = usagesOf(csr);
      const verdict = signerValidation(str(rec(csr.spec).signerName), request, usages);
      if (!verdict.recognized) return;
      const status = rec(csr.status);
      if (verdict.error) {
        const now = rfc3339(ctx.clock.now());
        const failed = { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: verdict.error, lastUpdateTime: now, lastTransitionTime: now };
        await updateStatus(csr, { ...status, conditions: [...(Array.isArray(status.conditions) ? status.conditions : []), failed] });
        return;
      }
      const signer = await signingCA();
      try {
        await checkSignature(request);
      } catch (err) {
        throw new Error(`error auto signing csr: unable to verify certificate request signature: ${err instanceof Error ? err.message : String(err)}`);
      }
      const duration = certificateDuration(num(rec(csr.spec).expirationSeconds), options.durationMs);
      const pemText = await issueCertificate({ request, ca: signer, usages: keyUsagesFromStrings(usages), validity: validity(ctx.clock.now(), duration, signer.notAfter) });
      await updateStatus(csr, { ...status, certificate: btoa(pemText) });
    },
    ctx.log,
  );
  const enqueue = (csr: KubeObject) => {
    if (wanted(csr)) queue.add(csr.metadata?.name ?? '');
  };

  return {
    name: CSR_SIGNING_CONTROLLER,
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
