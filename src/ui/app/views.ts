// The app's views, in navigation order. A view is a feature's default export,
// loaded on first visit. Later features (Access, Settings, Tutorials) add
// their entry here; nothing else in the shell changes.

import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface ViewDefinition {
  /** Route id: the URL is #/<id>. */
  readonly id: string;
  /** Navigation label (also the view's heading). */
  readonly label: string;
  /** One line under the label in the navigation. */
  readonly hint: string;
  /** Keyboard shortcut: Alt+<key> opens the view. */
  readonly key: string;
  readonly component: LazyExoticComponent<ComponentType>;
}

export const VIEWS: readonly ViewDefinition[] = [
  { id: 'console', label: 'Console', hint: 'Send API requests', key: '1', component: lazy(() => import('../features/console')) },
  { id: 'explorer', label: 'Explorer', hint: 'Browse the cluster live', key: '2', component: lazy(() => import('../features/explorer')) },
  { id: 'pods', label: 'Pods', hint: 'Logs and exec', key: '8', component: lazy(() => import('../features/pods')) },
  { id: 'editor', label: 'Editor', hint: 'Edit and apply manifests', key: '3', component: lazy(() => import('../features/editor')) },
  { id: 'managed-fields', label: 'Managed fields', hint: 'Who owns which field', key: '4', component: lazy(() => import('../features/managed-fields')) },
  { id: 'access', label: 'Access', hint: 'Authorization step by step', key: '5', component: lazy(() => import('../features/access')) },
  { id: 'tutorials', label: 'Tutorials', hint: 'Learn by doing', key: '6', component: lazy(() => import('../features/tutorials')) },
  { id: 'settings', label: 'Settings', hint: 'Identities, configuration, clock', key: '7', component: lazy(() => import('../features/settings')) },
];

export const DEFAULT_VIEW = 'console';

export function findView(id: string): ViewDefinition {
  return VIEWS.find((v) => v.id === id) ?? VIEWS.find((v) => v.id === DEFAULT_VIEW)!;
}
