import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** A view's chunk that did not load: after a new deployment, the old page's chunks may be gone from the host. */
function isChunkLoadFailure(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported/i.test(error.message);
}

/** Keeps a failing view from taking the shell down; shows what broke. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="alert alert--error">
        <strong>This view failed.</strong> {this.state.error.message}
        <div>
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
          {isChunkLoadFailure(this.state.error) && (
            <button type="button" onClick={() => location.reload()}>
              Reload the app
            </button>
          )}
        </div>
      </div>
    );
  }
}
