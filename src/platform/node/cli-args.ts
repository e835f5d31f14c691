// Command-line parsing for `npm run serve`. The host's own options are few
// (--port, --kubeconfig, --data-dir, --bind-address); every other --flag is a
// kube-apiserver flag and goes to the core unchanged, by name, as
// kube-apiserver spells it (pflag syntax: --name=value, --name value, --bool).

export interface CliOptions {
  readonly port: number;
  readonly bindAddress: string;
  readonly kubeconfig?: string;
  readonly dataDir?: string;
  /** kube-apiserver flags by name without dashes, e.g. {'runtime-config': 'batch/v1=false'}. */
  readonly flags: Record<string, string>;
  /** --open: no access control (AlwaysAllow, plain http, no credentials), instead of the secure default. */
  readonly open: boolean;
  readonly help: boolean;
  /** --nodes (a count or roles) or --nodes-config (a file): the simulated nodes; absent: kind's three. */
  readonly nodes?: { readonly spec: string } | { readonly file: string };
  /** --time-scale N: simulated time runs N times as fast as the host's. */
  readonly timeScale: number;
  /** --print-env: print KUBECONFIG=… (and the URL) on stdout for other test runners; everything else goes to stderr. */
  readonly printEnv: boolean;
}

/** Host options; kube-apiserver's --secure-port is accepted as a synonym of --port. */
const HOST_FLAGS = new Set(['port', 'secure-port', 'kubeconfig', 'data-dir', 'bind-address', 'help', 'open', 'nodes', 'nodes-config', 'time-scale', 'print-env']);
/** kube-apiserver flags that may be given several times (StringArray / StringSlice): their values are joined with commas. */
const REPEATABLE_FLAGS = new Set([
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

export function parseCliArgs(argv: readonly string[]): CliOptions {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      values.help = 'true';
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') throw new Error(`unexpected argument "${arg}": flags look like --name=value`);
    const eq = arg.indexOf('=');
    let name: string;
    let value: string;
    if (eq >= 0) {
      name = arg.slice(2, eq);
      value = arg.slice(eq + 1);
    } else {
      name = arg.slice(2);
      const next = argv[i + 1];
      // pflag's rule for a flag without "=": it takes the next word unless that is another flag.
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i++;
      } else {
        value = 'true';
      }
    }
    if (name === '') throw new Error(`bad flag syntax: ${arg}`);
    values[name] = REPEATABLE_FLAGS.has(name) && values[name] !== undefined ? `${values[name]},${value}` : value;
  }

  const flags: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (!HOST_FLAGS.has(name)) flags[name] = value;

  const portText = values.port ?? values['secure-port'] ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid argument "${portText}" for "--port" flag`);

  if (values.nodes !== undefined && values['nodes-config'] !== undefined) throw new Error('--nodes and --nodes-config cannot be used together');
  const scaleText = values['time-scale'] ?? '1';
  const timeScale = Number(scaleText);
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new Error(`invalid argument "${scaleText}" for "--time-scale" flag: a positive number`);

  return {
    port,
    timeScale,
    ...(values.nodes !== undefined ? { nodes: { spec: values.nodes } } : values['nodes-config'] !== undefined ? { nodes: { file: values['nodes-config'] } } : {}),
    bindAddress: values['bind-address'] ?? '127.0.0.1',
    kubeconfig: values.kubeconfig,
    dataDir: values['data-dir'],
    flags,
    help: values.help === 'true',
    printEnv: values['print-env'] !== undefined && values['print-env'] !== 'false',
    open: values.open !== undefined && values.open !== 'false',
  };
}
