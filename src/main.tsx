import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createSessionActor } from './app/App.tsx';
import { installLeaveGuard } from './app/navigation/leaveGuard.ts';
import { loadAppConfig } from './services/configService.ts';

// Before the router listens: Back and Forward reach the leave guard first.
installLeaveGuard();
/** Reads the run-time configuration, then renders the app. */
async function start(): Promise<void> {
  const config = await loadAppConfig();
  const sessionActor = createSessionActor();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App config={config} sessionActor={sessionActor} />
    </StrictMode>,
  );
}

// Not a top-level await: a module with one turns off the bundler's chunk merging, and the shell
// would then arrive in a dozen small files (decision 018).
void start();
