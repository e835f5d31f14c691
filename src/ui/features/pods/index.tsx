// Pods: the running cluster as a learner first meets it — a small list of
// pods kept current by a watch (READY, STATUS, RESTARTS, NODE and IP as
// `kubectl get pods -o wide` prints them), and for the pod picked its log
// (`kubectl logs [-f]`) and an exec panel (`kubectl exec`). Other views link
// here with #/pods?ns=<namespace>&pod=<name>&tab=logs|exec.

import { Tabs } from '../../components/tabs';
import { useListWatch } from '../../lib/api/use-list-watch';
import { navigate, useRoute } from '../../lib/router';
import { ExecPanel } from './exec-panel';
import { LogPanel } from './log-panel';
import { containerNames, summarizePod } from './pod-summary';
import './pods.css';

const TABS = [
  { id: 'logs', label: 'Logs' },
  { id: 'exec', label: 'Exec' },
];

export default function PodsView() {
  const { params } = useRoute();
  const namespace = params.ns ?? 'default';
  const selected = params.pod;
  const tab = TABS.some((t) => t.id === params.tab) ? params.tab! : 'logs';
  const go = (change: Record<string, string | undefined>) => navigate('pods', { ns: namespace, pod: selected, tab, ...change }, { replace: true });

  const namespaces = useListWatch({ path: '/api/v1/namespaces', mode: 'object' });
  const pods = useListWatch({ path: namespace === '*' ? '/api/v1/pods' : `/api/v1/namespaces/${namespace}/pods`, mode: 'object' });
  const [podNamespace, podName] = selected?.includes('/') ? (selected.split('/', 2) as [string, string]) : [namespace, selected];
  const pod = pods.items.find((e) => e.namespace === podNamespace && e.name === podName)?.object;
  const containers = containerNames(pod);

  return (
    <div className="view pods">
      <div className="view__header">
        <h1>Pods</h1>
        <span className="muted">The pods the kubelets run: their logs, and commands run in their containers.</span>
      </div>
      <div className="pods-layout">
        <div className="panel stack">
          <div className="row">
            <label>
              Namespace
              <select value={namespace} onChange={(e) => go({ ns: e.target.value, pod: undefined })}>
                <option value="*">All namespaces</option>
                {namespaces.items.map((n) => (
                  <option key={n.name} value={n.name}>
                    {n.name}
                  </option>
                ))}
                {!namespaces.items.some((n) => n.name === namespace) && namespace !== '*' && <option value={namespace}>{namespace}</option>}
              </select>
            </label>
            <span className="muted" role="status">
              {pods.phase === 'listing' ? 'Listing…' : `${pods.items.length} pod${pods.items.length === 1 ? '' : 's'}`}
            </span>
          </div>
          {pods.error && (
            <div role="alert" className="alert alert--error">
              {pods.error}
            </div>
          )}
          <div className="pods-table-wrap">
            <table className="pods-table" aria-label="Pods">
              <thead>
                <tr>
                  {namespace === '*' && <th scope="col">Namespace</th>}
                  <th scope="col">Name</th>
                  <th scope="col">Ready</th>
                  <th scope="col">Status</th>
                  <th scope="col">Restarts</th>
                  <th scope="col">Node</th>
                  <th scope="col">IP</th>
                </tr>
              </thead>
              <tbody>
                {pods.items.map((entry) => {
                  const s = summarizePod(entry.object);
                  const key = namespace === '*' ? `${entry.namespace}/${entry.name}` : entry.name;
                  return (
                    <tr key={entry.key} data-pod={entry.name} aria-selected={entry.namespace === podNamespace && entry.name === podName}>
                      {namespace === '*' && <td>{entry.namespace}</td>}
                      <td>
                        <button type="button" className="link" onClick={() => go({ pod: key })}>
                          {entry.name}
                        </button>
                      </td>
                      <td>{s.ready}</td>
                      <td data-testid="pod-status">{s.status}</td>
                      <td>{s.restarts}</td>
                      <td>{s.node}</td>
                      <td>{s.ip}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {pods.phase !== 'listing' && pods.items.length === 0 && <p className="muted">No pods here. Create one with the Console or the Editor (kubectl run's Pod).</p>}
        </div>
        <div className="panel stack" aria-label="Pod" role="region">
          {!selected ? (
            <p className="muted">Pick a pod to read its log or run a command in it.</p>
          ) : !pod ? (
            <p className="muted">{pods.phase === 'listing' ? 'Listing…' : `No pod ${podName} in ${podNamespace}.`}</p>
          ) : (
            <>
              <h2 className="pods-title">
                <code>
                  {podNamespace}/{podName}
                </code>
              </h2>
              <Tabs label="Pod" tabs={TABS} selected={tab} onSelect={(id) => go({ tab: id })}>
                {tab === 'logs' && <LogPanel key={`${podNamespace}/${podName}`} namespace={podNamespace} pod={podName!} containers={containers.all} />}
                {tab === 'exec' && <ExecPanel key={`${podNamespace}/${podName}`} namespace={podNamespace} pod={podName!} containers={containers.regular} />}
              </Tabs>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
