import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Catches a page's rendering bug and shows a way out instead of a blank screen. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error): void {
    console.error('A page failed to render', error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert">
        <h1>Something went wrong</h1>
        <p>This page could not be shown. Reload the page to try again; if it keeps happening, let us know.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
