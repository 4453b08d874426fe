import { useSyncExternalStore } from 'react';

/**
 * What a viewer knows of the file it shows when the portal opened it (a file of an artifact):
 * the file's own name, the artifact it came from and the way back, and a video's poster frame.
 * It travels in the history entry (`history.state.viewer`), so it survives a reload; a viewer
 * opened from elsewhere (the mobile apps, a link in a new tab) has none.
 */
export interface ViewerOrigin {
  /** The file as the artifact lists it: '<caption>. <original name>'. */
  title: string;
  /** The artifact's title. */
  artifactTitle: string;
  /** The address of the page that opened the viewer. */
  backHref: string;
  /** A video's poster frame. */
  poster: string | null;
  /** An image's alt text, when it has one (the image's `alt` in the viewer). */
  alt?: string;
}

/** The history state a link to a viewer carries. */
export const viewerState = (origin: ViewerOrigin): { viewer: ViewerOrigin } => ({ viewer: origin });

function parse(state: unknown): ViewerOrigin | null {
  const viewer = (state as { viewer?: Record<string, unknown> } | null)?.viewer;
  if (!viewer || typeof viewer !== 'object') return null;
  const { title, artifactTitle, backHref, poster, alt } = viewer;
  if (typeof title !== 'string' || typeof artifactTitle !== 'string' || typeof backHref !== 'string') return null;
  // Only a way back inside the portal.
  if (!backHref.startsWith('/') || backHref.startsWith('//')) return null;
  return {
    title,
    artifactTitle,
    backHref,
    poster: typeof poster === 'string' ? poster : null,
    ...(typeof alt === 'string' && alt !== '' ? { alt } : {}),
  };
}

let cachedState: unknown;
let cachedOrigin: ViewerOrigin | null = null;
const snapshot = (): ViewerOrigin | null => {
  const state: unknown = typeof history === 'undefined' ? null : history.state;
  if (state !== cachedState) {
    cachedState = state;
    cachedOrigin = parse(state);
  }
  return cachedOrigin;
};
const subscribe = (onChange: () => void) => {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
};

/** Where the viewer was opened from, when the portal opened it. */
export function useViewerOrigin(): ViewerOrigin | null {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}
