// The API server: one function from a Fetch Request to a Response, built from a
// configuration and a storage backend. Hosts (the service worker, the Node
// HTTP server) only translate to and from this.

import type { MasterLeases } from './controllers/bootstrap/master-leases';
import type { Clock } from './clock';
import type { MvccStore } from './storage/types';
import type { UserInfo } from './auth/types';
import type { WebhookFetch } from './admission/webhook/fetch';
import type { AuditEvent } from './auth/audit/event';
import type { ConfigReload } from './api/access/access-control';
import type { KubeletConnections } from './kubelet/connection';
import type { NodeConfig } from './kubelet/topology';
import type { FaultInjection } from './api/faults';
import type { SigningKeyPair } from './controllers';

export type { ConfigReload };

export interface ApiServerOptions {
  /** The storage backend (memory, IndexedDB-backed, file-backed). */
  readonly store: MvccStore;
  /** Time source; defaults to the host clock. */
  readonly clock?: Clock;
  /** kube-apiserver flags by their names without the leading dashes, e.g. {'runtime-config': 'batch/v1=false', 'feature-gates': '…'}. */
  readonly flags?: Readonly<Record<string, string>>;
  /**
   * Longest a watch may stay open, in seconds. A browser kills a service
   * worker's response after about 5 minutes, so the worker host passes less
   * than that; under Node kube-apiserver's 30–60 minutes apply.
   */
  readonly maxWatchSeconds?: number;
  /**
   * This API server among several on one store (etcd): the host name its identity Lease names, what
   * the Lease's name hashes (host name and port, so that servers on one host differ), and the shared
   * records of live servers the `kubernetes` endpoints are made of. The advertised address is --advertise-address.
   */
  readonly apiServerIdentity?: { readonly hostname?: string; readonly identity?: string; readonly masterLeases?: MasterLeases };
  /** Where the server is running, for /version and the defaults that differ. */
  readonly host: 'browser' | 'node';
  /**
   * The background controllers to run, in kube-controller-manager's
   * --controllers syntax ('*' all on by default, names, '-name'). Default:
   * kubeadm's set (KUBEADM_CONTROLLERS: '*' plus bootstrapsigner and
   * tokencleaner). Tests of the
   * API alone pass [] (none), so that no controller adds objects.
   */
  readonly controllers?: readonly string[];
  /** Where controllers report what they could not do (default: console.info). */
  readonly log?: (message: string) => void;
  /**
   * Reads a configuration file named by a flag (--token-auth-file,
   * --authorization-config, --authentication-config, kubeconfig files of
   * webhooks, keys…). Under Node the file system; in the browser the stored
   * configuration document. Absent: such flags are a start-up error.
   */
  readonly readFile?: (path: string) => Promise<string>;
  /**
   * How admission webhooks are called (src/core/admission/webhook/fetch.ts):
   * a POST that trusts the configuration's caBundle (under Node,
   * https.request with `ca`). Absent: the platform's fetch, which trusts only
   * the platform's roots.
   */
  readonly admissionWebhookFetch?: WebhookFetch;
  /**
   * An audit backend: receives the audit.k8s.io/v1 events of each request's
   * stages at the level --audit-policy-file gives (nothing without a policy),
   * as kube-apiserver's log backend does. Under Node, --audit-log-path.
   */
  readonly auditSink?: (event: AuditEvent) => void;
  /**
   * The kubelets the API server reaches for pods/log, exec, attach,
   * portforward and metrics.k8s.io (default: a registry of its own, where
   * the simulated kubelets register). Tests pass one to register doubles.
   */
  readonly kubeletConnections?: KubeletConnections;
  /**
   * The simulated nodes, each with a kubelet running inside the server as an
   * API client (system:node:<name>). Default: kind's three nodes
   * (DEFAULT_TOPOLOGY) when controllers run, none when they do not (the
   * unit-test servers); [] is a bare API server.
   */
  readonly nodes?: readonly NodeConfig[];
  /** Nodes of `nodes` whose kubelet does not start (a node stopped by the user stays stopped across restarts). */
  readonly stoppedNodes?: readonly string[];
  /**
   * The cluster CA with its key (PEM certificate, PEM private key), as kubeadm
   * gives kube-controller-manager --cluster-signing-cert-file/-key-file and
   * --root-ca-file: the CSR signer issues certificates with it and the root-CA
   * publisher publishes it. Absent: CSRs are not signed (kube's signer needs
   * those files) and the publisher keeps a CA of its own. The key stays in the
   * host's function; no API object holds it.
   */
  readonly clusterCA?: () => Promise<SigningKeyPair>;
}

/** The hosts' hold on the simulated nodes' kubelets. */
export interface NodeControl {
  /** The configured nodes. */
  readonly configured: readonly NodeConfig[];
  /** The names of the nodes whose kubelet runs. */
  running(): string[];
  /** Stops a node's kubelet: its lease expires, the node-lifecycle controller marks it Unknown. */
  stopNode(name: string): Promise<void>;
  /** Starts a stopped node's kubelet again. */
  startNode(name: string): void;
}

export interface ApiServer {
  handle(request: Request): Promise<Response>;
  /**
   * Serves a request as the given user, skipping authentication (it still goes
   * through impersonation, authorization and audit). For the server's own
   * clients (controllers, the host's UI), never reachable over HTTP.
   */
  handleAs(request: Request, user: UserInfo): Promise<Response>;
  /**
   * Reads --authorization-config and --authentication-config again and uses
   * changed, valid versions (an invalid one is refused, the last good one
   * kept), as kube-apiserver's file watchers do. Hosts call it when a file
   * changes. Resolves with what each file's check did.
   */
  reloadConfigFiles(): Promise<readonly ConfigReload[]>;
  /** The simulated nodes (none configured: an empty `configured`). */
  readonly nodes: NodeControl;
  /**
   * Faults for tests of clients' error paths (src/core/api/faults): answers
   * matching requests from outside (`handle`) with a Status, a delay or a
   * broken watch; the server's own clients (`handleAs`) are never faulted.
   */
  readonly faults: FaultInjection;
  /**
   * Resolves when /readyz would answer 200 (the store has loaded and the
   * first-start objects exist), rejects when that start-up failed. For hosts
   * whose clients wait for readiness without polling /readyz (the browser's page).
   */
  ready(): Promise<void>;
  /** Resolves when the first-start objects exist and every controller and kubelet has handled what it has seen so far. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export { createApiServer } from './api/create-server';
export type { NodeConfig } from './kubelet/topology';
export type { FaultInjection, FaultSpec, InjectedFault } from './api/faults';
