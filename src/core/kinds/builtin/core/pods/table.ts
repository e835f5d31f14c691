// The pods table (printPod in pkg/printers/internalversion): READY, STATUS as
// kubectl derives it from phase, reasons and container states, RESTARTS with
// the age of the last restart, AGE, and with -o wide IP, NODE, NOMINATED NODE
// and READINESS GATES.

import type { KubeObject, TableDefinition } from '../../../types';
import { ageSince } from '../../common/human-duration';
import { AGE_COLUMN, arr, col, get, num, rec, str, table, wide } from '../../common/table';

type Obj = Record<string, unknown>;

function isRestartableInit(c: Obj | undefined): boolean {
  return !!c && c.restartPolicy === 'Always';
}

function later(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function hasCondition(status: Obj, type: string): boolean {
  return arr(status.conditions).some((c) => rec(c).type === type && rec(c).status === 'True');
}

function podCells(pod: KubeObject, now: number): unknown[] {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const containers = arr(spec.containers).map(rec);
  const initContainers = arr(spec.initContainers).map(rec);
  let restarts = 0;
  let restartableInitRestarts = 0;
  let total = containers.length;
  let ready = 0;
  let lastRestart = '';
  let lastRestartableInitRestart = '';
  const phase = str(status.phase);
  let reason = status.reason ? str(status.reason) : phase;
  for (const c of arr(status.conditions).map(rec)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const inits = new Map<string, Obj>();
  for (const c of initContainers) {
    inits.set(str(c.name), c);
    if (isRestartableInit(c)) total++;
  }
  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses).map(rec);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    restarts += num(cs.restartCount);
    const lastTerminated = str(get(cs, 'lastState', 'terminated', 'finishedAt'));
    if (get(cs, 'lastState', 'terminated')) lastRestart = later(lastRestart, lastTerminated);
    const restartable = isRestartableInit(inits.get(str(cs.name)));
    if (restartable) {
      restartableInitRestarts += num(cs.restartCount);
      if (get(cs, 'lastState', 'terminated')) lastRestartableInitRestart = later(lastRestartableInitRestart, lastTerminated);
    }
    const terminated = rec(get(cs, 'state', 'terminated'));
    const hasTerminated = get(cs, 'state', 'terminated') !== undefined;
    const waiting = rec(get(cs, 'state', 'waiting'));
    if (hasTerminated && num(terminated.exitCode) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready) ready++;
      continue;
    }
    if (hasTerminated) {
      if (!str(terminated.reason)) {
        reason = num(terminated.signal) !== 0 ? `Init:Signal:${num(terminated.signal)}` : `Init:ExitCode:${num(terminated.exitCode)}`;
      } else reason = `Init:${str(terminated.reason)}`;
      initializing = true;
    } else if (str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
      initializing = true;
    } else {
      reason = `Init:${i}/${initContainers.length}`;
      initializing = true;
    }
    break;
  }
  if (!initializing || hasCondition(status, 'Initialized')) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses).map(rec);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      restarts += num(cs.restartCount);
      if (get(cs, 'lastState', 'terminated')) lastRestart = later(lastRestart, str(get(cs, 'lastState', 'terminated', 'finishedAt')));
      const waiting = rec(get(cs, 'state', 'waiting'));
      const terminatedRaw = get(cs, 'state', 'terminated');
      const terminated = rec(terminatedRaw);
      if (get(cs, 'state', 'waiting') !== undefined && str(waiting.reason)) reason = str(waiting.reason);
      else if (terminatedRaw !== undefined && str(terminated.reason)) reason = str(terminated.reason);
      else if (terminatedRaw !== undefined) {
        reason = num(terminated.signal) !== 0 ? `Signal:${num(terminated.signal)}` : `ExitCode:${num(terminated.exitCode)}`;
      } else if (cs.ready && get(cs, 'state', 'running') !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasCondition(status, 'Ready') ? 'Running' : 'NotReady';
  }
  const deleting = !!pod.metadata?.deletionTimestamp;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart) restartsText = `${restarts} (${ageSince(lastRestart, now)} ago)`;

  const podIPs = arr(status.podIPs).map(rec);
  const podIP = podIPs.length ? str(podIPs[0]!.ip) : '';
  const gates = arr(spec.readinessGates).map(rec);
  let readinessGates = '<none>';
  if (gates.length) {
    let trueConditions = 0;
    for (const g of gates) {
      const condition = arr(status.conditions).map(rec).find((c) => c.type === g.conditionType);
      if (condition?.status === 'True') trueConditions++;
    }
    readinessGates = `${trueConditions}/${gates.length}`;
  }
  return [
    `${ready}/${total}`,
    reason,
    restartsText,
    ageSince(pod.metadata?.creationTimestamp, now),
    podIP || '<none>',
    str(spec.nodeName) || '<none>',
    str(status.nominatedNodeName) || '<none>',
    readinessGates,
  ];
}

export const POD_TABLE: TableDefinition = table(
  [
    col('Ready', 'string', 'Ready containers out of all containers'),
    col('Status', 'string', 'Summary state of the pod'),
    col('Restarts', 'string', 'Container restarts and time since the last one'),
    AGE_COLUMN,
    wide('IP', 'string', 'Pod IP address'),
    wide('Node', 'string', 'Node the pod is bound to'),
    wide('Nominated Node', 'string', 'Node nominated by preemption'),
    wide('Readiness Gates', 'string', 'Readiness gates that are true out of all'),
  ],
  podCells,
);
