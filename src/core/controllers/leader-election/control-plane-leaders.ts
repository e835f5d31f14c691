// The leader elections of a KubeTab server's control plane, as on a kubeadm
// control-plane node: kube-controller-manager and kube-scheduler each run
// only where they hold their Lease in kube-system (--leader-elect, on by
// default, with the defaults 15 s / 10 s / 2 s), so that several KubeTab
// servers sharing one etcd run each controller once. kube-apiserver's own
// work (its bootstrap objects, its apiserver-<hash> identity Lease) is not
// elected: every server does it.
//
// The simulated nodes' kubelets run with the kube-controller-manager leader:
// KubeTab simulates the whole of kind's cluster inside one server, so the
// nodes belong to the cluster, not to a server, and must run exactly once per
// cluster; the controller manager's Lease is the cluster-wide "this server
// runs the simulation" lock (the kubelet's own stand-ins, such as the pod
// termination controller, go with them).

import type { Clock } from '../../clock';
import { ClockTimers } from '../../util/clock-timers';
import { ApiClient, type Send } from '../client/api-client';
import { CONTROLLER_MANAGER_RATE, SCHEDULER_RATE, type RateLimit } from '../client/rate-limiter';
import { EventRecorder } from '../runtime/event-recorder';
import { LeaderElector } from './leader-elector';
import { LeaseLock } from './lease-lock';

export const LEADER_ELECTION_NAMESPACE = 'kube-system';
export const CONTROLLER_MANAGER_LEASE = 'kube-controller-manager';
export const SCHEDULER_LEASE = 'kube-scheduler';

export interface LeaderElectionTiming {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** kube-controller-manager's and kube-scheduler's --leader-elect-lease-duration, -renew-deadline, -retry-period defaults. */
export const DEFAULT_LEADER_ELECTION: LeaderElectionTiming = Object.freeze({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 });

/** A candidate's identity as both components make it: the host name, '_', a UUID of this run. */
export function leaderIdentity(hostname: string): string {
  return `${hostname}_${crypto.randomUUID()}`;
}

/** What runs while a component leads: started when it acquires its Lease, stopped when it loses or gives it up. */
export interface LeaderElectedWork {
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface ControlPlaneLeadersOptions {
  /** The server, for the Leases and their events (each component's own identity, from its User-Agent). */
  readonly send: Send;
  readonly clock: Clock;
  /** The host name in the holder identities (the control-plane node's). */
  readonly hostname: string;
  /** No other server shares the store: a Lease held by another identity is this server's earlier run (see LeaderElector). */
  readonly soleCandidate: boolean;
  /** kube-controller-manager's controllers and the simulated kubelets; absent: no kube-controller-manager election. */
  readonly controllerManager?: LeaderElectedWork;
  /** kube-scheduler; absent: no kube-scheduler election. */
  readonly scheduler?: LeaderElectedWork;
  readonly timing?: LeaderElectionTiming;
  /** The acquire loop's jitter source (tests fix it). */
  readonly jitter?: () => number;
  readonly baseUrl?: string;
  readonly log?: (message: string) => void;
}

export interface ControlPlaneLeaders {
  /** Resolves once each election has made its first attempt (and, where it won, its work has started). */
  readonly started: Promise<void>;
  readonly controllerManager: LeaderElector | undefined;
  readonly scheduler: LeaderElector | undefined;
  /** Stops the work this server leads and releases its Leases. */
  stop(): Promise<void>;
}

interface Component {
  readonly lease: string;
  /** The User-Agent prefix that gives the client the component's identity. */
  readonly agent: string;
  /** The event source its leader election records with. */
  readonly eventComponent: string;
  readonly rateLimit: RateLimit;
}

const CONTROLLER_MANAGER: Component = { lease: CONTROLLER_MANAGER_LEASE, agent: 'kube-controller-manager', eventComponent: 'kube-controller-manager', rateLimit: CONTROLLER_MANAGER_RATE };
// kube-scheduler's leader election records with its first profile's scheduler name.
const SCHEDULER: Component = { lease: SCHEDULER_LEASE, agent: 'kube-scheduler', eventComponent: 'default-scheduler', rateLimit: SCHEDULER_RATE };

export function startControlPlaneLeaders(options: ControlPlaneLeadersOptions): ControlPlaneLeaders {
  const log = options.log ?? ((message: string) => console.info(`[leader-election] ${message}`));
  const timers = new ClockTimers(options.clock, (err) => log(`timer failed: ${err instanceof Error ? err.message : String(err)}`));
  const timing = options.timing ?? DEFAULT_LEADER_ELECTION;
  const elect = (component: Component, work: LeaderElectedWork | undefined): LeaderElector | undefined => {
    if (!work) return undefined;
    // The components' leader election clients: their own credentials, a "leader-election" User-Agent.
    const client = new ApiClient({
      send: options.send,
      baseUrl: options.baseUrl,
      userAgent: `${component.agent}/v1.32.0 (kubetab) kubernetes/kubetab/leader-election`,
      rateLimit: component.rateLimit,
    });
    const componentLog = (message: string) => log(`${component.lease}: ${message}`);
    const recorder = new EventRecorder(client, options.clock, { component: component.eventComponent }, componentLog);
    const lock = new LeaseLock(client, LEADER_ELECTION_NAMESPACE, component.lease, leaderIdentity(options.hostname), recorder);
    return new LeaderElector({
      lock,
      clock: options.clock,
      timers,
      ...timing,
      soleCandidate: options.soleCandidate,
      ...(options.jitter ? { jitter: options.jitter } : {}),
      onStartedLeading: () => work.start(),
      onStoppedLeading: () => work.stop(),
      log: componentLog,
    });
  };
  const controllerManager = elect(CONTROLLER_MANAGER, options.controllerManager);
  const scheduler = elect(SCHEDULER, options.scheduler);
  const started = Promise.all([controllerManager?.start(), scheduler?.start()]).then(() => undefined);
  let stopped: Promise<void> | undefined;
  return {
    started,
    controllerManager,
    scheduler,
    stop() {
      stopped ??= (async () => {
        await Promise.all([controllerManager?.stop(), scheduler?.stop()]);
        timers.stop();
      })();
      return stopped;
    },
  };
}
