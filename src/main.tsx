import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createSessionActor } from './app/App.tsx';
import { loadAppConfig } from './services/configService.ts';

const config = await loadAppConfig();
const sessionActor = createSessionActor();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} sessionActor={sessionActor} />
  </StrictMode>,
);
