// Feature 6: identities and the cluster's settings. Who the app sends requests
// as; the configuration document (authorization chain, authentication,
// tokens, feature gates, runtime-config), validated before it is saved; reset,
// export and import; the server's clock.

import { useEffect, useState } from 'react';
import type { ConfigurationState } from '../../../platform/browser/messages';
import { Tabs } from '../../components/tabs';
import { StatusAlert } from '../../components/status-alert';
import { syncAdministrator } from '../../lib/api/administrator';
import { useRoute } from '../../lib/router';
import { ClockPanel } from './clock-panel';
import { ClusterPanel } from './cluster-panel';
import { ConfigurationPanel } from './configuration-panel';
import { IdentitiesPanel } from './identities-panel';
import { NodesPanel } from './nodes-panel';
import './settings.css';

const TABS = [
  { id: 'identities', label: 'Identities' },
  { id: 'configuration', label: 'Configuration' },
  { id: 'nodes', label: 'Nodes' },
  { id: 'cluster', label: 'Cluster data' },
  { id: 'clock', label: 'Clock' },
];

export default function SettingsView() {
  const { params } = useRoute();
  const [tab, setTab] = useState(TABS.some((t) => t.id === params.tab) ? params.tab! : 'identities');
  const [state, setState] = useState<ConfigurationState | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    syncAdministrator().then(setState, setError);
  }, []);
  useEffect(() => {
    if (params.tab && TABS.some((t) => t.id === params.tab)) setTab(params.tab);
  }, [params.tab]);
  return (
    <div className="view settings">
      <div className="view__header">
        <h1>Settings</h1>
        <span className="muted">Identities, the cluster's configuration, its data and its clock.</span>
      </div>
      <StatusAlert error={error} />
      <Tabs label="Settings" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'identities' && <IdentitiesPanel configuration={state} />}
        {tab === 'configuration' && <ConfigurationPanel state={state} onState={setState} />}
        {tab === 'nodes' && <NodesPanel onState={setState} />}
        {tab === 'cluster' && <ClusterPanel onState={setState} />}
        {tab === 'clock' && <ClockPanel />}
      </Tabs>
    </div>
  );
}
