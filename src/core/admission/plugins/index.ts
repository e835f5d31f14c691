// The admission plugins KubeTab implements, by kube-apiserver name. The chain
// orders them by ALL_ORDERED_PLUGINS whatever the order here; to add a plugin,
// write plugins/<name>.ts exporting a factory and add one line below.
// Names kube knows that are missing here are accepted by the flags and do
// nothing (see chain.ts).

import type { AdmissionPluginFactory } from '../types';
import { namespaceLifecycle } from './namespace-lifecycle';
import { persistentVolumeClaimResize } from './persistent-volume-claim-resize';
import { alwaysAdmit, alwaysDeny, alwaysPullImages, namespaceExists } from './simple-plugins';
import { certificateApproval, certificateSigning, certificateSubjectRestriction } from './certificates';
import { resourceQuota } from './resource-quota';
import { limitRanger } from './limit-ranger';
import { defaultStorageClass } from './default-storage-class';
import { defaultIngressClass } from './default-ingress-class';
import { storageObjectInUseProtection } from './storage-object-in-use-protection';
import { taintNodesByCondition } from './taint-nodes-by-condition';
import { runtimeClass } from './runtime-class';
import { serviceAccount } from './service-account';
import { priority } from './priority';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { nodeRestriction } from './node-restriction';
import { createPodSecurityPlugin } from '../pod-security/plugin';
import { createValidatingAdmissionPolicyPlugin } from '../policy/validating-policy';
import { createMutatingWebhookPlugin, createValidatingWebhookPlugin } from '../webhook/dispatch';

export const PLUGIN_FACTORIES: Readonly<Record<string, AdmissionPluginFactory>> = {
  NamespaceLifecycle: namespaceLifecycle,
  PersistentVolumeClaimResize: persistentVolumeClaimResize,
  AlwaysAdmit: alwaysAdmit,
  AlwaysDeny: alwaysDeny,
  AlwaysPullImages: alwaysPullImages,
  NamespaceExists: namespaceExists,
  CertificateApproval: certificateApproval,
  CertificateSigning: certificateSigning,
  CertificateSubjectRestriction: certificateSubjectRestriction,
  ResourceQuota: resourceQuota,
  LimitRanger: limitRanger,
  DefaultStorageClass: defaultStorageClass,
  DefaultIngressClass: defaultIngressClass,
  StorageObjectInUseProtection: storageObjectInUseProtection,
  TaintNodesByCondition: taintNodesByCondition,
  RuntimeClass: runtimeClass,
  ServiceAccount: serviceAccount,
  Priority: priority,
  DefaultTolerationSeconds: ({ flags }) => defaultTolerationSeconds(flags),
  NodeRestriction: nodeRestriction,
  PodSecurity: () => createPodSecurityPlugin(),
  ValidatingAdmissionPolicy: () => createValidatingAdmissionPolicyPlugin(),
  MutatingAdmissionWebhook: () => createMutatingWebhookPlugin(),
  ValidatingAdmissionWebhook: () => createValidatingWebhookPlugin(),
};
