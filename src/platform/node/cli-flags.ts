// The one table of the flags `npm run serve` accepts, and of the rest of
// kube-apiserver 1.32's flags, so that the command line is checked as
// kube-apiserver's pflag set checks it: an unknown name is an error (a typo
// such as --datadir must not quietly run in memory), and a kube-apiserver flag
// KubeTab does not implement is refused with a message saying so, or accepted
// with a warning where ignoring it changes nothing a client can observe.
//
// Each entry says whether the flag takes a value (pflag: a bool flag takes one
// only as --name=value; any other flag takes the next word).

export type FlagRole =
  /** read by the Node host itself (port, data directory, nodes, …) */
  | 'host'
  /** a kube-apiserver (or kube-controller-manager) flag the core or the host implements */
  | 'implemented'
  /** kube-apiserver's, not implemented, and ignoring it changes nothing observable here: warn */
  | 'ignored'
  /** kube-apiserver's, not implemented, and ignoring it would change what a client sees: refuse */
  | 'unsupported';

export interface FlagSpec {
  readonly role: FlagRole;
  /** false for a bool flag (pflag's NoOptDefVal "true"). */
  readonly takesValue: boolean;
  /** for an 'unsupported' flag: values at which it changes nothing here (kube's defaults KubeTab behaves as). */
  readonly harmlessWhen?: (value: string) => boolean;
}

const value = (role: FlagRole): FlagSpec => ({ role, takesValue: true });
const bool = (role: FlagRole): FlagSpec => ({ role, takesValue: false });
const isTrue = (v: string) => v === 'true';

export const FLAGS: ReadonlyMap<string, FlagSpec> = new Map<string, FlagSpec>([
  // The host's own.
  ['port', value('host')],
  ['secure-port', value('host')],
  ['advertise-address', value('implemented')],
  ['bind-address', value('host')],
  ['kubeconfig', value('host')],
  ['data-dir', value('host')],
  ['nodes', value('host')],
  ['nodes-config', value('host')],
  ['time-scale', value('host')],
  ['open', bool('host')],
  ['print-env', bool('host')],
  ['help', bool('host')],
  ['version', bool('host')],

  // kube-apiserver flags KubeTab implements.
  ['anonymous-auth', bool('implemented')],
  ['api-audiences', value('implemented')],
  ['audit-log-format', value('implemented')],
  ['audit-log-maxage', value('implemented')],
  ['audit-log-maxbackup', value('implemented')],
  ['audit-log-maxsize', value('implemented')],
  ['audit-log-path', value('implemented')],
  ['audit-policy-file', value('implemented')],
  ['authentication-config', value('implemented')],
  ['authentication-token-webhook-cache-ttl', value('implemented')],
  ['authentication-token-webhook-config-file', value('implemented')],
  ['authentication-token-webhook-version', value('implemented')],
  ['authorization-config', value('implemented')],
  ['authorization-mode', value('implemented')],
  ['authorization-policy-file', value('implemented')],
  ['authorization-webhook-cache-authorized-ttl', value('implemented')],
  ['authorization-webhook-cache-unauthorized-ttl', value('implemented')],
  ['authorization-webhook-config-file', value('implemented')],
  ['authorization-webhook-version', value('implemented')],
  ['client-ca-file', value('implemented')],
  ['cors-allowed-origins', value('implemented')],
  ['default-not-ready-toleration-seconds', value('implemented')],
  ['default-unreachable-toleration-seconds', value('implemented')],
  ['disable-admission-plugins', value('implemented')],
  ['enable-admission-plugins', value('implemented')],
  ['enable-bootstrap-token-auth', bool('implemented')],
  ['etcd-cafile', value('implemented')],
  ['etcd-certfile', value('implemented')],
  ['etcd-compaction-interval', value('implemented')],
  ['etcd-keyfile', value('implemented')],
  ['etcd-prefix', value('implemented')],
  ['etcd-servers', value('implemented')],
  ['feature-gates', value('implemented')],
  ['kubelet-preferred-address-types', value('implemented')],
  ['oidc-client-id', value('implemented')],
  ['oidc-groups-claim', value('implemented')],
  ['oidc-groups-prefix', value('implemented')],
  ['oidc-issuer-url', value('implemented')],
  ['oidc-required-claim', value('implemented')],
  ['oidc-signing-algs', value('implemented')],
  ['oidc-username-claim', value('implemented')],
  ['oidc-username-prefix', value('implemented')],
  ['requestheader-allowed-names', value('implemented')],
  ['requestheader-client-ca-file', value('implemented')],
  ['requestheader-extra-headers-prefix', value('implemented')],
  ['requestheader-group-headers', value('implemented')],
  ['requestheader-uid-headers', value('implemented')],
  ['requestheader-username-headers', value('implemented')],
  ['runtime-config', value('implemented')],
  ['service-account-extend-token-expiration', bool('implemented')],
  ['service-account-issuer', value('implemented')],
  ['service-account-jwks-uri', value('implemented')],
  ['service-account-key-file', value('implemented')],
  ['service-account-lookup', bool('implemented')],
  ['service-account-max-token-expiration', value('implemented')],
  ['service-account-signing-key-file', value('implemented')],
  ['service-cluster-ip-range', value('implemented')],
  ['service-node-port-range', value('implemented')],
  ['tls-cert-file', value('implemented')],
  ['tls-private-key-file', value('implemented')],
  ['token-auth-file', value('implemented')],
  // kube-controller-manager's, for the in-process node-ipam controller.
  ['cluster-cidr', value('implemented')],
  ['node-cidr-mask-size', value('implemented')],

  // kube-apiserver flags KubeTab ignores with a warning: logging, metrics,
  // profiling, tracing, request and connection limits, timeouts, peers of a
  // highly available control plane, storage tuning.
  ...(
    [
      'allow-metric-labels',
      'allow-metric-labels-manifest',
      'apiserver-count',
      'audit-log-batch-buffer-size',
      'audit-log-batch-max-size',
      'audit-log-batch-max-wait',
      'audit-log-batch-throttle-burst',
      'audit-log-batch-throttle-qps',
      'audit-log-mode',
      'audit-log-truncate-max-batch-size',
      'audit-log-truncate-max-event-size',
      'audit-log-version',
      'audit-webhook-batch-buffer-size',
      'audit-webhook-batch-max-size',
      'audit-webhook-batch-max-wait',
      'audit-webhook-batch-throttle-burst',
      'audit-webhook-batch-throttle-qps',
      'audit-webhook-initial-backoff',
      'audit-webhook-mode',
      'audit-webhook-truncate-max-batch-size',
      'audit-webhook-truncate-max-event-size',
      'audit-webhook-version',
      'cert-dir',
      'coordinated-leadership-lease-duration',
      'coordinated-leadership-renew-deadline',
      'coordinated-leadership-retry-period',
      'debug-socket-path',
      'delete-collection-workers',
      'disabled-metrics',
      'endpoint-reconciler-type',
      'etcd-count-metric-poll-period',
      'etcd-db-metric-poll-interval',
      'etcd-healthcheck-timeout',
      'etcd-readycheck-timeout',
      'external-hostname',
      'goaway-chance',
      'http2-max-streams-per-connection',
      'identity-lease-duration-seconds',
      'identity-lease-renew-interval-seconds',
      'kubelet-certificate-authority',
      'kubelet-client-certificate',
      'kubelet-client-key',
      'kubelet-timeout',
      'lease-reuse-duration-seconds',
      'livez-grace-period',
      'log-flush-frequency',
      'log-json-info-buffer-size',
      'log-text-info-buffer-size',
      'logging-format',
      'max-connection-bytes-per-sec',
      'max-mutating-requests-inflight',
      'max-requests-inflight',
      'min-request-timeout',
      'peer-advertise-ip',
      'peer-advertise-port',
      'peer-ca-file',
      'proxy-client-cert-file',
      'proxy-client-key-file',
      'request-timeout',
      'show-hidden-metrics-for-version',
      'shutdown-delay-duration',
      'shutdown-send-retry-after',
      'shutdown-watch-termination-grace-period',
      'storage-backend',
      'storage-initialization-timeout',
      'storage-media-type',
      'strict-transport-security-directives',
      'tls-cipher-suites',
      'tls-min-version',
      'tracing-config-file',
      'v',
      'vmodule',
      'watch-cache-sizes',
    ] as const
  ).map((name): [string, FlagSpec] => [name, value('ignored')]),
  ...(
    [
      'aggregator-reject-forwarding-redirect',
      'audit-log-batch-throttle-enable',
      'audit-log-compress',
      'audit-log-truncate-enabled',
      'audit-webhook-batch-throttle-enable',
      'audit-webhook-truncate-enabled',
      'contention-profiling',
      'disable-http2-serving',
      'enable-aggregator-routing',
      'enable-priority-and-fairness',
      'encryption-provider-config-automatic-reload',
      'log-json-split-stream',
      'log-text-split-stream',
      'permit-address-sharing',
      'permit-port-sharing',
      'profiling',
      'watch-cache',
    ] as const
  ).map((name): [string, FlagSpec] => [name, bool('ignored')]),

  // kube-apiserver flags whose effect KubeTab does not have: refused, since a
  // server that quietly ignored them would not do what the user asked.
  ...(
    [
      'admission-control',
      'admission-control-config-file',
      'audit-webhook-config-file',
      'egress-selector-config-file',
      'emulated-version',
      'encryption-provider-config',
      'etcd-servers-overrides',
      'event-ttl',
      'kubernetes-service-node-port',
      'oidc-ca-file',
      'service-account-signing-endpoint',
      'tls-sni-cert-key',
    ] as const
  ).map((name): [string, FlagSpec] => [name, value('unsupported')]),
  // KubeTab behaves as these are set by kubeadm (privileged containers allowed, the garbage collector on).
  ['allow-privileged', { role: 'unsupported', takesValue: false, harmlessWhen: isTrue }],
  ['enable-garbage-collector', { role: 'unsupported', takesValue: false, harmlessWhen: isTrue }],
]);

/** pflag's single-letter shorthands kube-apiserver has: -h (help) and -v (log level). */
export const SHORTHANDS: ReadonlyMap<string, string> = new Map([
  ['h', 'help'],
  ['v', 'v'],
]);

/** kube-apiserver flags that may be given several times (StringArray / StringSlice): their values are joined with commas. */
export const REPEATABLE_FLAGS: ReadonlySet<string> = new Set([
  'service-account-issuer',
  'service-account-key-file',
  'api-audiences',
  'oidc-required-claim',
  'oidc-signing-algs',
  'requestheader-username-headers',
  'requestheader-uid-headers',
  'requestheader-group-headers',
  'requestheader-extra-headers-prefix',
  'requestheader-allowed-names',
  'cors-allowed-origins',
]);
