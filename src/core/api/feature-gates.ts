// --feature-gates=Name=true,Other=false with 1.32's defaults for the gates the
// server consults. Unknown gates are refused at start-up as kube-apiserver does.

export class FeatureGateError extends Error {}

/** 1.32 defaults of the gates KubeTab's behaviour depends on. */
const DEFAULTS_1_32: Record<string, { default: boolean; lockedToDefault?: boolean }> = {
  AllowUnsafeMalformedObjectDeletion: { default: false },
  APIResponseCompression: { default: true },
  AggregatedDiscoveryEndpoint: { default: true, lockedToDefault: true },
  AuthorizeWithSelectors: { default: true },
  AnonymousAuthConfigurableEndpoints: { default: true },
  CBORServingAndStorage: { default: false },
  ConsistentListFromCache: { default: true },
  ResilientWatchCacheInitialization: { default: true },
  ServerSideApply: { default: true, lockedToDefault: true },
  ServerSideFieldValidation: { default: true, lockedToDefault: true },
  StructuredAuthenticationConfiguration: { default: true },
  StructuredAuthorizationConfiguration: { default: true, lockedToDefault: true },
  WatchList: { default: true },
  WatchBookmark: { default: true, lockedToDefault: true },
  RetryGenerateName: { default: true },
  SeparateCacheWatchRPC: { default: true },
  KMSv1: { default: false },
  ExternalServiceAccountTokenSigner: { default: false },
  ServiceAccountTokenNodeBinding: { default: true },
  ServiceAccountTokenJTI: { default: true },
  ServiceAccountTokenPodNodeInfo: { default: true },
  ServiceAccountTokenNodeBindingValidation: { default: true },
  MutatingAdmissionPolicy: { default: false },
  DynamicResourceAllocation: { default: false },
  InPlacePodVerticalScaling: { default: false },
  SidecarContainers: { default: true },
  JobPodReplacementPolicy: { default: true },
  PodLifecycleSleepAction: { default: true },
  StorageVersionAPI: { default: false },
  APIServerIdentity: { default: true },
  UnknownVersionInteroperabilityProxy: { default: false },
  InformerResourceVersion: { default: false },
  ClusterTrustBundle: { default: false },
  ClusterTrustBundleProjection: { default: false },
  AllAlpha: { default: false },
  AllBeta: { default: false },
};

export class FeatureGates {
  private readonly values = new Map<string, boolean>();

  constructor(flag: string | undefined) {
    for (const raw of (flag ?? '').split(',')) {
      const entry = raw.trim();
      if (!entry) continue;
      const eq = entry.indexOf('=');
      if (eq === -1) throw new FeatureGateError(`missing bool value for ${entry}`);
      const name = entry.slice(0, eq).trim();
      const text = entry.slice(eq + 1).trim();
      const known = DEFAULTS_1_32[name];
      if (!known) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
      if (text !== 'true' && text !== 'false') {
        throw new FeatureGateError(`invalid value of ${name}=${text}, err: strconv.ParseBool: parsing "${text}": invalid syntax`);
      }
      const value = text === 'true';
      if (known.lockedToDefault && value !== known.default) {
        throw new FeatureGateError(`cannot set feature gate ${name} to ${value}, feature is locked to ${known.default}`);
      }
      this.values.set(name, value);
    }
  }

  enabled(name: string): boolean {
    const explicit = this.values.get(name);
    if (explicit !== undefined) return explicit;
    return DEFAULTS_1_32[name]?.default ?? false;
  }

  /** Every known gate with its effective value (for the UI's settings view). */
  all(): Record<string, boolean> {
    const out: Record<string, boolean> = {};
    for (const name of Object.keys(DEFAULTS_1_32).sort()) out[name] = this.enabled(name);
    return out;
  }
}
