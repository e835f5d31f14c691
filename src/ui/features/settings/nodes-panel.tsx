// The cluster's simulated nodes (issue 13): each configured node with its
// size, its STATUS as `kubectl get nodes` prints it (from the API's Node, kept
// current by a watch) and a power switch for its kubelet — a stopped kubelet
// stops renewing its Lease, and the node-lifecycle controller marks the node
// Unknown (NotReady) once its grace period (50 s) has passed on the server's
// clock. The topology itself (add or remove workers, sizes) is the
// configuration document's `nodes`, saved like the rest of it: the worker
// validates it and restarts the server.

import { useCallback, useEffect, useState } from 'react';
import type { NodeConfig } from '../../../platform/browser/cluster-config';
import type { ConfigurationState, MessageReply, NodesState } from '../../../platform/browser/messages';
import { askWorker } from '../../../platform/browser/worker-client';
import { StatusAlert } from '../../components/status-alert';
import { useListWatch } from '../../lib/api/use-list-watch';
import type { KubeObject } from '../../lib/api/types';

interface NodeCondition {
  type?: string;
  status?: string;
  reason?: string;
}

/** STATUS as kubectl prints it: Ready, NotReady or Unknown, then SchedulingDisabled when cordoned. */
export function kubectlNodeStatus(node: KubeObject | undefined): string {
  if (!node) return 'not registered';
  const conditions = ((node['status'] as { conditions?: NodeCondition[] } | undefined)?.conditions ?? []) as NodeCondition[];
  const ready = conditions.find((c) => c.type === 'Ready');
  const statuses = [!ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if ((node['spec'] as { unschedulable?: boolean } | undefined)?.unschedulable) statuses.push('SchedulingDisabled');
  return statuses.join(',');
}

/** kind's name for the next worker: <cluster>-worker, -worker2, -worker3, … */
function nextWorkerName(nodes: readonly NodeConfig[]): string {
  const taken = new Set(nodes.map((n) => n.name));
  const prefix = nodes.find((n) => n.role === 'worker')?.name.replace(/-worker\d*$/, '') ?? nodes[0]?.name.replace(/-(control-plane|worker)\d*$/, '') ?? 'kubetab';
  for (let i = 1; ; i++) {
    const name = `${prefix}-worker${i === 1 ? '' : i}`;
    if (!taken.has(name)) return name;
  }
}

export function NodesPanel({ onState }: { onState(state: ConfigurationState): void }) {
  const [nodes, setNodes] = useState<NodesState | null>(null);
  const [draft, setDraft] = useState<NodeConfig[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [answer, setAnswer] = useState<MessageReply<'kubetab:configuration:save'> | null>(null);
  const watched = useListWatch({ path: '/api/v1/nodes', mode: 'object' });
  const apiNodes = new Map(watched.items.map((e) => [e.name, e.object]));

  const load = useCallback(() => {
    askWorker('kubetab:nodes:get', {}).then((state) => {
      setNodes(state);
      setDraft(state.nodes.map((n) => ({ ...n.config })));
    }, setError);
  }, []);
  useEffect(load, [load]);

  const power = (name: string, on: boolean) => {
    setError(null);
    setBusy(name);
    askWorker(on ? 'kubetab:nodes:start' : 'kubetab:nodes:stop', { name })
      .then(setNodes, setError)
      .finally(() => setBusy(null));
  };

  const edit = (index: number, change: Partial<NodeConfig>) => setDraft((d) => d && d.map((n, i) => (i === index ? { ...n, ...change } : n)));
  const apply = async () => {
    if (!draft) return;
    setError(null);
    setAnswer(null);
    setBusy('topology');
    try {
      const current = await askWorker('kubetab:configuration:get', {});
      const result = await askWorker('kubetab:configuration:save', { document: { ...current.document, nodes: draft } });
      setAnswer(result);
      onState(result.state);
      if (result.saved) load();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  const changed = nodes && draft ? JSON.stringify(nodes.nodes.map((n) => n.config)) !== JSON.stringify(draft) : false;

  return (
    <div className="stack">
      <div className="panel stack">
        <h3>Nodes</h3>
        <p className="muted">
          Each node runs a simulated kubelet in this tab. Stopping one stops its kubelet: its Lease is no longer renewed, and once the node-lifecycle controller's grace period
          (50 seconds of the server's clock) has passed the node is <code>NotReady</code> and its pods are evicted after their tolerations (5 minutes). Move the clock forward to see it
          sooner. A stopped node stays stopped when the server restarts.
        </p>
        <div className="settings-table-wrap">
          <table className="settings-table" aria-label="Nodes">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">CPU</th>
                <th scope="col">Memory</th>
                <th scope="col">Pods</th>
                <th scope="col">Status</th>
                <th scope="col">Kubelet</th>
              </tr>
            </thead>
            <tbody>
              {nodes?.nodes.map(({ config, stopped, running }) => (
                <tr key={config.name} data-node={config.name}>
                  <td>
                    <code>{config.name}</code>
                  </td>
                  <td>{config.role}</td>
                  <td>{config.cpu}</td>
                  <td>{config.memory}</td>
                  <td>{config.maxPods}</td>
                  <td data-testid="node-status">{kubectlNodeStatus(apiNodes.get(config.name))}</td>
                  <td>
                    <span data-testid="kubelet-state">{stopped ? 'stopped' : running ? 'running' : 'starting'}</span>{' '}
                    <button type="button" disabled={busy !== null} onClick={() => power(config.name, stopped)} aria-label={`${stopped ? 'Start' : 'Stop'} ${config.name}`}>
                      {stopped ? 'Start' : 'Stop'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {nodes && nodes.nodes.length === 0 && <p className="muted">No nodes: a bare API server (pods stay Pending).</p>}
      </div>

      <div className="panel stack" role="group" aria-label="Topology">
        <h3>Topology</h3>
        <p className="muted">
          The machines of the cluster, as kind's configuration lists them. Applying restarts the server with them; a node taken out is deleted from the API (as{' '}
          <code>kubectl delete node</code> after its machine is gone) and its pods are removed by the pod garbage collector.
        </p>
        {draft && (
          <div className="settings-table-wrap">
            <table className="settings-table" aria-label="Node sizes">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">CPU</th>
                  <th scope="col">Memory</th>
                  <th scope="col">Max pods</th>
                  <th scope="col">
                    <span className="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {draft.map((node, i) => (
                  <tr key={i}>
                    <td>
                      <input aria-label={`Name of node ${i + 1}`} value={node.name} onChange={(e) => edit(i, { name: e.target.value })} size={22} />
                    </td>
                    <td>
                      <select aria-label={`Role of ${node.name}`} value={node.role} onChange={(e) => edit(i, { role: e.target.value as NodeConfig['role'] })}>
                        <option value="control-plane">control-plane</option>
                        <option value="worker">worker</option>
                      </select>
                    </td>
                    <td>
                      <input aria-label={`CPU of ${node.name}`} value={node.cpu} onChange={(e) => edit(i, { cpu: e.target.value })} size={5} />
                    </td>
                    <td>
                      <input aria-label={`Memory of ${node.name}`} value={node.memory} onChange={(e) => edit(i, { memory: e.target.value })} size={7} />
                    </td>
                    <td>
                      <input aria-label={`Max pods of ${node.name}`} type="number" min={1} value={node.maxPods} onChange={(e) => edit(i, { maxPods: Number(e.target.value) })} style={{ width: '6em' }} />
                    </td>
                    <td>
                      <button type="button" className="danger" onClick={() => setDraft(draft.filter((_, j) => j !== i))} aria-label={`Remove ${node.name}`}>
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="row">
          <button type="button" disabled={!draft} onClick={() => draft && setDraft([...draft, { name: nextWorkerName(draft), role: 'worker', cpu: '4', memory: '8Gi', ephemeralStorage: '100Gi', maxPods: 110 }])}>
            Add worker
          </button>
          <button type="button" className="primary" disabled={!changed || busy !== null} onClick={() => void apply()}>
            {busy === 'topology' ? 'Applying…' : 'Apply (restarts the server)'}
          </button>
          <button type="button" disabled={!changed || busy !== null} onClick={() => nodes && setDraft(nodes.nodes.map((n) => ({ ...n.config })))}>
            Discard changes
          </button>
        </div>
        {answer && !answer.saved && (
          <div role="alert" className="alert alert--error">
            Not applied:
            <ul>
              {answer.problems.map((p, i) => (
                <li key={i}>{p.message}</li>
              ))}
            </ul>
          </div>
        )}
        {answer?.saved && (
          <p role="status" className="muted">
            Applied: the server restarted with {draft?.length ?? 0} node{draft?.length === 1 ? '' : 's'}.
          </p>
        )}
      </div>
      <StatusAlert error={error} />
    </div>
  );
}
