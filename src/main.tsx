import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createSessionActor } from './app/App.tsx';
import { installLeaveGuard } from './app/navigation/leaveGuard.ts';
import { apiBase } from './services/api.ts';
import { loadAppConfig } from './services/configService.ts';
import { prefetchPage } from './services/prefetch.ts';
import { hasSession, WEB_CLIENT_HEADERS } from './services/session.ts';

// Before the router listens: Back and Forward reach the leave guard first.
installLeaveGuard();
// zod (loaded later, by the pages whose services parse answers) probes with `new Function` whether
// it may compile its parsers; the portal's Content-Security-Policy forbids that, and the browser
// reports the probe as a violation. zod reads its settings from this global object: jitless, it
// parses as it would after a refused probe and never probes.
Object.assign(globalThis, { ['__zod_globalConfig']: { jitless: true } });
/**
 * Resolves once the browser has painted the frame `index.html` draws before the app (its header
 * bar): scripts that arrive quickly would otherwise run, and the app render, before the first
 * paint, which then waits for them. A hidden page paints nothing, so it does not wait.
 */
function afterFirstPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Reads the run-time configuration, then renders the app once the page's frame is on screen. */
async function start(): Promise<void> {
  // A signed-in visitor's page asks for its data now, beside the session check, not once drawn.
  if (hasSession()) prefetchPage(apiBase(), location.pathname, WEB_CLIENT_HEADERS);
  const config = await loadAppConfig();
  await afterFirstPaint();
  const sessionActor = createSessionActor();
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render gives the browser its turn every few milliseconds instead of
  // holding the main thread until the whole page is drawn (the frame stays on screen meanwhile).
  startTransition(() =>
    root.render(
      <StrictMode>
        <App config={config} sessionActor={sessionActor} />
      </StrictMode>,
    ),
  );
}

// Not a top-level await: a module with one turns off the bundler's chunk merging, and the shell
// would then arrive in a dozen small files (decision 018).
void start();
