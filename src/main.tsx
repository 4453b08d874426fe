import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createSessionActor } from './app/App.tsx';
import { installLeaveGuard } from './app/navigation/leaveGuard.ts';
import { loadAppConfig } from './services/configService.ts';

// Before the router listens: Back and Forward reach the leave guard first.
installLeaveGuard();
const config = await loadAppConfig();
const sessionActor = createSessionActor();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} sessionActor={sessionActor} />
  </StrictMode>,
);
