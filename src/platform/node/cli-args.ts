// Command-line parsing for `npm run serve`. The host's own options are few
// (--port, --kubeconfig, --data-dir, --bind-address, …); the other flags are
// kube-apiserver's and go to the core unchanged, by name, as kube-apiserver
// spells it (pflag syntax: --name=value, --name value, --bool). Every name is
// checked against the table in cli-flags.ts: an unknown one is an error, as in
// kube-apiserver, and one KubeTab does not implement is refused or warned of.

import { FLAGS, REPEATABLE_FLAGS, SHORTHANDS, type FlagSpec } from './cli-flags';

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
  /** --version: print the version and exit, as kube-apiserver does. */
  readonly version: boolean;
  /** One line each for the kube-apiserver flags given that KubeTab ignores. */
  readonly warnings: readonly string[];
  /** --nodes (a count or roles) or --nodes-config (a file): the simulated nodes; absent: kind's three. */
  readonly nodes?: { readonly spec: string } | { readonly file: string };
  /** --time-scale N: simulated time runs N times as fast as the host's. */
  readonly timeScale: number;
  /** --print-env: print KUBECONFIG=… (and the URL) on stdout for other test runners; everything else goes to stderr. */
  readonly printEnv: boolean;
}

/** A kube-apiserver flag KubeTab does not implement and cannot ignore: refused without the usage text. */
export class UnsupportedFlagError extends Error {}

const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** strconv.ParseBool, as pflag reads a bool flag's value; normalized to "true"/"false" for the core. */
function boolValue(name: string, text: string): string {
  if (TRUE_WORDS.has(text)) return 'true';
  if (FALSE_WORDS.has(text)) return 'false';
  throw new Error(`invalid argument "${text}" for "--${name}" flag: strconv.ParseBool: parsing "${text}": invalid syntax`);
}

export function parseCliArgs(argv: readonly string[]): CliOptions {
  const values: Record<string, string> = {};
  const warnings: string[] = [];
  const set = (name: string, spec: FlagSpec, raw: string) => {
    const value = spec.takesValue ? raw : boolValue(name, raw);
    if (spec.role === 'unsupported' && !spec.harmlessWhen?.(value)) {
      throw new UnsupportedFlagError(`flag --${name} is a kube-apiserver flag that KubeTab does not implement; remove it to start the server`);
    }
    if (spec.role === 'ignored' && values[name] === undefined) warnings.push(`Flag --${name} is not implemented by KubeTab and is ignored`);
    values[name] = REPEATABLE_FLAGS.has(name) && values[name] !== undefined ? `${values[name]},${value}` : value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('-') && !arg.startsWith('--') && arg.length > 1) {
      // A shorthand: -h, -v 2, -v=2, -v2 (pflag's forms).
      const letter = arg[1]!;
      const name = SHORTHANDS.get(letter);
      if (name === undefined) throw new Error(`unknown shorthand flag: '${letter}' in ${arg}`);
      const spec = FLAGS.get(name)!;
      const rest = arg.slice(2);
      if (rest.startsWith('=')) set(name, spec, rest.slice(1));
      else if (rest !== '' && spec.takesValue) set(name, spec, rest);
      else if (rest !== '') throw new Error(`unknown shorthand flag: '${rest[0]}' in ${arg}`);
      else if (!spec.takesValue) set(name, spec, 'true');
      else if (i + 1 < argv.length) set(name, spec, argv[++i]!);
      else throw new Error(`flag needs an argument: '${letter}' in ${arg}`);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') throw new Error(`unexpected argument "${arg}": flags look like --name=value`);
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (name === '' || name.startsWith('-')) throw new Error(`bad flag syntax: ${arg}`);
    const spec = FLAGS.get(name);
    if (spec === undefined) throw new Error(`unknown flag: --${name}`);
    if (eq >= 0) set(name, spec, arg.slice(eq + 1));
    else if (!spec.takesValue) set(name, spec, 'true');
    // pflag: a flag that takes a value takes the next word, whatever it is.
    else if (i + 1 < argv.length) set(name, spec, argv[++i]!);
    else throw new Error(`flag needs an argument: --${name}`);
  }

  const flags: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (FLAGS.get(name)?.role === 'implemented') flags[name] = value;

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
    version: values.version === 'true',
    printEnv: values['print-env'] === 'true',
    open: values.open === 'true',
    warnings,
  };
}
