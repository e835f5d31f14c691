// Views are addressed by the URL's hash (#/explorer?path=…): links survive a
// reload and work on a static host under any sub-path (no server rewrites).
// Features navigate to one another through navigate(), never by importing
// each other.

import { useSyncExternalStore } from 'react';

export interface Route {
  /** View id: 'console', 'explorer', 'editor', 'managed-fields', later 'access', 'settings', 'tutorials'. */
  readonly view: string;
  readonly params: Readonly<Record<string, string>>;
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const at = raw.indexOf('?');
  const view = decodeURIComponent(at < 0 ? raw : raw.slice(0, at));
  const params = Object.fromEntries(new URLSearchParams(at < 0 ? '' : raw.slice(at + 1)));
  return { view, params };
}

export function routeHref(view: string, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, value);
  const query = search.toString();
  return `#/${encodeURIComponent(view)}${query ? `?${query}` : ''}`;
}

export function navigate(view: string, params: Record<string, string | undefined> = {}, options: { replace?: boolean } = {}): void {
  const href = routeHref(view, params);
  if (options.replace) {
    history.replaceState(history.state, '', href);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else location.hash = href.slice(1);
}

let cached: { hash: string; route: Route } | null = null;

function snapshot(): Route {
  if (!cached || cached.hash !== location.hash) cached = { hash: location.hash, route: parseHash(location.hash) };
  return cached.route;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, snapshot);
}
