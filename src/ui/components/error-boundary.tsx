import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
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
        </div>
      </div>
    );
  }
}
