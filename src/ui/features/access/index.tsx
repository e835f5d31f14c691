// Feature 5: authorization, step by step. For a request the server saw (its
// audit log) or one composed by hand (answered by a SubjectAccessReview), the
// decision: authentication, impersonation, each authorizer in order — RBAC
// with every binding that names the user, its role and each rule — and the
// final answer with its HTTP status. Also who may do something, and what a
// subject may do (resources × verbs).
//
// Route parameters prefill "Check a request": #/access?tab=check&user=…&groups=…&verb=…&group=…&resource=…&subresource=…&namespace=…&name=…&path=…

import { useMemo, useState } from 'react';
import { Tabs } from '../../components/tabs';
import { useRoute } from '../../lib/router';
import { AccessMatrix } from './access-matrix';
import type { AuditRecord } from './audit';
import { AuditLog } from './audit-log';
import { CheckRequest, type Subject } from './check-request';
import { EMPTY_DRAFT, type RequestDraft } from './request-fields';
import { WhoCan } from './who-can';
import './access.css';

const TABS = [
  { id: 'requests', label: 'Requests' },
  { id: 'check', label: 'Check a request' },
  { id: 'who-can', label: 'Who can' },
  { id: 'matrix', label: 'Access matrix' },
];

function fromParams(params: Readonly<Record<string, string>>): { subject: Subject; draft: RequestDraft } {
  return {
    subject: { user: params.user ?? 'jane', groups: params.groups ?? 'developers, system:authenticated' },
    draft: {
      ...EMPTY_DRAFT,
      ...(params.verb ? { verb: params.verb } : {}),
      ...(params.path ? { kind: 'path' as const, path: params.path } : {}),
      ...(params.group !== undefined ? { group: params.group } : {}),
      ...(params.resource ? { resource: params.resource } : {}),
      ...(params.subresource ? { subresource: params.subresource } : {}),
      ...(params.namespace !== undefined ? { namespace: params.namespace } : {}),
      ...(params.name ? { name: params.name } : {}),
    },
  };
}

/** A recorded request as a composed one: the same user and attributes, to try with others. */
function fromRecord(record: AuditRecord): { subject: Subject; draft: RequestDraft } {
  const user = record.event.impersonatedUser ?? record.event.user;
  const ref = record.event.objectRef;
  const subject = { user: user.username ?? '', groups: (user.groups ?? []).join(', ') };
  if (!ref?.resource) return { subject, draft: { ...EMPTY_DRAFT, kind: 'path', verb: record.event.verb, path: record.event.requestURI.split('?')[0]! } };
  return {
    subject,
    draft: { ...EMPTY_DRAFT, kind: 'resource', verb: record.event.verb, group: ref.apiGroup ?? '', resource: ref.resource, subresource: ref.subresource ?? '', namespace: ref.namespace ?? '', name: ref.name ?? '' },
  };
}

export default function AccessView() {
  const { params } = useRoute();
  const [tab, setTab] = useState(params.tab && TABS.some((t) => t.id === params.tab) ? params.tab : 'requests');
  const routed = useMemo(() => fromParams(params), [params]);
  const [composed, setComposed] = useState(routed);
  const [seenRoute, setSeenRoute] = useState(routed);
  if (routed !== seenRoute) {
    // A new link (a tutorial's) replaces what was composed.
    setSeenRoute(routed);
    setComposed(routed);
    if (params.tab) setTab(params.tab);
  }
  return (
    <div className="view access">
      <div className="view__header">
        <h1>Access</h1>
        <span className="muted">How the server decides who may do what: authentication, impersonation, each authorizer, the answer.</span>
      </div>
      <Tabs label="Access views" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'requests' && (
          <AuditLog
            onCompose={(record) => {
              setComposed(fromRecord(record));
              setTab('check');
            }}
          />
        )}
        {tab === 'check' && <CheckRequest initial={composed} />}
        {tab === 'who-can' && <WhoCan />}
        {tab === 'matrix' && <AccessMatrix initial={composed.subject} />}
      </Tabs>
    </div>
  );
}
