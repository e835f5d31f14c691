// `npm run serve -- --port 8080 --kubeconfig ./kubeconfig [--data-dir DIR] [kube-apiserver flags]`
//
// Serves KubeTab's API over HTTP on 127.0.0.1 and writes a kubeconfig that
// kubectl uses as it is. In memory unless --data-dir is given.

import { join, resolve } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { parseCliArgs, UnsupportedFlagError } from './cli-args';
import { describeStartupError } from './startup-error';
import { removeOnExit } from './temporary-files';
import { versionInfo } from '../../core/api/version';
import { writeKubeconfig, type ExecUser } from './kubeconfig';
import { startNodeHost } from './node-host';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { systemClock } from '../../core/clock';
import type { NodeConfig } from '../../core/server';
import { parseNodesFlag, validateTopology } from '../../core/kubelet/node/topology-spec';
import { tlsFromFlags } from './tls-flags';
import { secureDefaults, type SecureSetup } from './secure-defaults';
import { bundledPluginCommand } from './credential-plugin-bundle';
import { ensureClusterAdminsBinding } from './admin-certificate';

const USAGE = `Usage: npm run serve -- [--port 8080] [--kubeconfig ./kubeconfig] [--data-dir DIR] [kube-apiserver flags]

  --port N            port to listen on (0: any free port; --secure-port is a synonym)
  --bind-address IP   address to listen on (default 127.0.0.1)
  --kubeconfig PATH   write a kubeconfig for kubectl pointing at this server
  --data-dir DIR      keep the data in DIR across restarts (default: in memory)
  --etcd-servers URLS keep the data in etcd at kube's keys (--etcd-prefix, --etcd-cafile/certfile/keyfile)
  --open              no access control: AlwaysAllow over plain http, no credentials
  --nodes N|ROLES     the simulated nodes: N nodes (a control plane and N-1 workers; default 3,
                      as kind), 0 for none, or roles in order: --nodes control-plane,worker,worker
  --nodes-config F    the nodes from a JSON or YAML list of
                      {name?, role, cpu?, memory?, ephemeralStorage?, maxPods?, zone?}
  --time-scale N      simulated time (the cluster's clock and every timer on it) runs N times as fast
  --print-env         print KUBECONFIG=PATH and KUBETAB_URL=URL on stdout (the other messages go to
                      stderr), writing the kubeconfig to a temporary file unless --kubeconfig is given
  --cors-allowed-origins RE,…   browser apps of these origins (regular expressions, pinned to the host:
                      '^http://localhost(:|$)') may call the server directly, as kube-apiserver's flag

By default the server is secured like a kubeadm cluster: --authorization-mode=Node,RBAC
(unless --authorization-mode or --authorization-config is given), an administrator
(kubernetes-admin, in system:masters) with a token in a generated --token-auth-file,
and https with a self-signed certificate (kept in DIR/pki with --data-dir). The
kubeconfig uses that administrator, and has a context "kubetab-default-sa" whose
credentials come from the credential plugin as system:serviceaccount:default:default.
Unless --client-ca-file is given, a cluster CA is generated as that file and the
kubeconfig also has a context "kubernetes-admin-cert": kubeadm's admin.conf user, a
client certificate CN=kubernetes-admin O=kubeadm:cluster-admins (bound to cluster-admin).

  --client-ca-file F                      client certificates verified against F: CN user, O groups
  --requestheader-client-ca-file F        an authenticating proxy's certificate verified against F, then
  --requestheader-username-headers H,…    its headers name the user (-group-headers, -extra-headers-prefix,
  --requestheader-allowed-names CN,…      -uid-headers; allowed-names limits the proxy's CN)
  --authorization-config F, --authentication-config F   reloaded when F changes (a bad version is
                                          logged and the last good one kept)
  --audit-policy-file F --audit-log-path P   audit.k8s.io/v1 events as JSON lines (P "-": stdout);
  --audit-log-maxsize MB --audit-log-maxbackup N   rotation

  --tls-cert-file F --tls-private-key-file K   serve https (the kubeconfig trusts F)

The other kube-apiserver flags KubeTab implements are given as kube-apiserver takes them, e.g.
  --runtime-config=batch/v1=false  --feature-gates=AllowUnsafeMalformedObjectDeletion=true
  --etcd-compaction-interval=5m0s  --service-cluster-ip-range=10.96.0.0/12
(and kube-controller-manager's --cluster-cidr, --node-cidr-mask-size). An unknown flag is an
error; a kube-apiserver flag KubeTab does not implement is refused, or ignored with a warning
where that changes nothing a client sees (logging, metrics, profiling, request limits, timeouts).
  --version           print the Kubernetes version served and exit
`;

/**
 * The kubeconfig's credential-plugin context: the plugin bundled into plain
 * JavaScript in the credentials directory (kubectl runs it at every call).
 * The packaged CLI has neither esbuild nor tsx to run the plugin with and
 * leaves the context out.
 */
function credentialPluginUsers(tokenFile: string, dir: string): ExecUser[] {
  try {
    return [{ name: 'kubetab-default-sa', ...bundledPluginCommand('system:serviceaccount:default:default', tokenFile, dir) }];
  } catch {
    return [];
  }
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    // As kube-apiserver (cobra): a bad flag is an error followed by the usage, exit code 1; a
    // flag KubeTab does not implement is named alone.
    process.stderr.write(error instanceof UnsupportedFlagError ? `Error: ${error.message}\n` : `Error: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(1);
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    process.stdout.write(`Kubernetes ${versionInfo('node').gitVersion}\n`);
    return;
  }
  for (const warning of options.warnings) process.stderr.write(`W ${warning}\n`);

  // --print-env: stdout is the environment alone; the controllers' and kubelets' console messages go to stderr.
  if (options.printEnv) console.info = console.log = (...args: unknown[]) => console.error(...args);
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  // Signals: during start-up they end the process at once (the exit hook still removes the
  // temporary files); once serving, `stop` closes the server first.
  let stop: ((signal: string) => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => (stop ? stop(signal) : process.exit(signal === 'SIGINT' ? 130 : 143));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The secure default (unless --open): Node,RBAC, an administrator token, https.
  const secure: SecureSetup | undefined = options.open ? undefined : await secureDefaults(options.flags, { ...(dataDir ? { dataDir } : {}), bindAddress: options.bindAddress });
  // In memory the generated keys and tokens live in a temporary directory: gone when the server is.
  if (secure && !dataDir) removeOnExit(secure.dir);
  const flags = secure?.flags ?? options.flags;
  const tls = tlsFromFlags(flags);
  let nodes: NodeConfig[] | undefined;
  try {
    if (options.nodes && 'spec' in options.nodes) nodes = parseNodesFlag(options.nodes.spec);
    else if (options.nodes) nodes = validateTopology(parseYaml(await readFile(options.nodes.file, 'utf8')));
  } catch (error) {
    process.stderr.write(`Error: ${describeStartupError(error)}\n`);
    process.exit(1);
  }
  const host = await startNodeHost({
    port: options.port,
    host: options.bindAddress,
    dataDir,
    flags,
    tls,
    ...(options.timeScale !== 1 ? { clock: systemClock(0, options.timeScale) } : {}),
    ...(nodes ? { nodes } : {}),
    ...(secure?.clusterCA ? { clusterCA: secure.clusterCA } : {}),
  });

  if (secure?.adminCertificate) await ensureClusterAdminsBinding(host.apiServer, host.url);

  // With --print-env stdout carries only the environment: the messages go to stderr.
  const say = (text: string) => (options.printEnv ? process.stderr : process.stdout).write(text);
  const kubeconfigPath = options.kubeconfig ? resolve(options.kubeconfig) : options.printEnv ? join(removeOnExit(await mkdtemp(join(tmpdir(), 'kubetab-kubeconfig-'))), 'kubeconfig') : undefined;
  if (kubeconfigPath) {
    const path = kubeconfigPath;
    const execUsers: ExecUser[] = secure ? credentialPluginUsers(secure.tokenFile, secure.dir) : [];
    // In https mode kubectl trusts the served certificate (self-signed, or its chain's PEM).
    await writeKubeconfig(path, {
      server: host.url,
      ...(tls ? { certificateAuthorityData: tls.cert.toString() } : {}),
      ...(secure?.adminToken ? { token: secure.adminToken, userName: 'kubernetes-admin' } : {}),
      execUsers,
      ...(secure?.adminCertificate ? { certificateUsers: [{ name: 'kubernetes-admin-cert', ...secure.adminCertificate }] } : {}),
    });
    say(`Wrote kubeconfig to ${path}\n  try: kubectl --kubeconfig ${options.kubeconfig ?? path} get namespaces\n`);
  }
  say(`KubeTab API server listening on ${host.url}\n`);
  if (secure) say(`Access control: ${flags['authorization-mode'] ?? `--authorization-config=${flags['authorization-config']}`}; tokens in ${secure.tokenFile}\n`);
  const etcdServers = flags['etcd-servers'];
  say(etcdServers ? `Data kept in etcd at ${etcdServers} under ${flags['etcd-prefix'] || '/registry'}\n` : options.dataDir ? `Data kept in ${resolve(options.dataDir)}\n` : 'Data kept in memory (use --data-dir DIR to keep it)\n');

  let stopping = false;
  stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: shutting down\n`);
    // Let the store flush what it acknowledged, but do not hang on a stuck client.
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    host.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Error: ${describeStartupError(error)}\n`);
        process.exit(1);
      },
    );
  };
  if (options.printEnv) process.stdout.write(`KUBECONFIG=${kubeconfigPath}\nKUBETAB_URL=${host.url}\n`);
}

// A start-up failure (a port in use, a damaged data directory, a bad flag value) is one line and exit code 1.
main().catch((error: unknown) => {
  process.stderr.write(`Error: ${describeStartupError(error)}\n`);
  process.exit(1);
});
