// The shell: header (server, identity, theme), navigation between views, and
// the current view. Views are lazy chunks; the shell never re-lays-out when
// one loads (fixed header and navigation sizes).

import { Suspense, useEffect, useRef } from 'react';
import { ErrorBoundary } from '../components/error-boundary';
import { navigate, routeHref, useRoute } from '../lib/router';
import { IdentityPicker } from './identity-picker';
import { ServerStatus } from './server-status';
import { ThemeToggle } from './theme-toggle';
import { UpdateNotice } from './update-notice';
import { DEFAULT_VIEW, findView, VIEWS } from './views';

function useViewShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const view = VIEWS.find((v) => v.key === event.key);
      if (!view) return;
      event.preventDefault();
      navigate(view.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function App() {
  const route = useRoute();
  const view = findView(route.view || DEFAULT_VIEW);
  const View = view.component;
  const mainRef = useRef<HTMLElement>(null);
  useViewShortcuts();
  useEffect(() => {
    document.title = `${view.label} · KubeTab`;
  }, [view]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={(e) => (e.preventDefault(), mainRef.current?.focus())}>
        Skip to content
      </a>
      <header className="shell__header">
        <a className="brand" href={routeHref(DEFAULT_VIEW)} aria-label="KubeTab home">
          <span className="brand__mark" aria-hidden="true">⎈</span> KubeTab
        </a>
        <ServerStatus />
        <div className="shell__header-tools">
          <IdentityPicker />
          <ThemeToggle />
        </div>
      </header>
      <nav className="shell__nav" aria-label="Views">
        <ul>
          {VIEWS.map((v) => (
            <li key={v.id}>
              <a href={routeHref(v.id)} aria-current={v.id === view.id ? 'page' : undefined} title={`${v.hint} (Alt+${v.key})`}>
                <span className="nav__label">{v.label}</span>
                <span className="nav__hint">{v.hint}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="shell__main" id="main" ref={mainRef} tabIndex={-1} aria-label={view.label}>
        <ErrorBoundary key={view.id}>
          <Suspense fallback={<p className="muted loading">Loading {view.label}…</p>}>
            <View />
          </Suspense>
        </ErrorBoundary>
      </main>
      <UpdateNotice />
    </div>
  );
}
