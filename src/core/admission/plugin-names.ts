// kube-apiserver 1.32's admission plugins: every name it knows, in the fixed
// order it runs them (pkg/kubeapiserver/options AllOrderedPlugins), and the
// ones enabled when no flag says otherwise.

export const ALL_ORDERED_PLUGINS = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  // Webhooks, policies, quota and deny always come last.
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;

export type AdmissionPluginName = (typeof ALL_ORDERED_PLUGINS)[number];

/** The plugins a 1.32 kube-apiserver enables without --enable-admission-plugins. */
export const DEFAULT_ON_PLUGINS: ReadonlySet<string> = new Set([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
]);

/**
 * Default-on plugins whose work a controller completes (kube-controller-manager
 * names): without it the plugin would leave objects stuck — pods refused for
 * want of a "default" ServiceAccount, claims that never lose their protection
 * finalizer, nodes never untainted. A server not running the controller
 * leaves the plugin out unless --enable-admission-plugins names it.
 */
export const PLUGIN_CONTROLLERS: Readonly<Record<string, readonly string[]>> = {
  ServiceAccount: ['serviceaccount-controller'],
  StorageObjectInUseProtection: ['persistentvolumeclaim-protection-controller', 'persistentvolume-protection-controller'],
  TaintNodesByCondition: ['node-lifecycle-controller'],
};

/** The plugins to leave out of the defaults given the controllers that run. */
export function pluginsWithoutTheirControllers(running: readonly string[]): string[] {
  const on = new Set(running);
  return Object.entries(PLUGIN_CONTROLLERS)
    .filter(([, needs]) => !needs.every((c) => on.has(c)))
    .map(([name]) => name);
}
