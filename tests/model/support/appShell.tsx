import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import type { memoryLocation } from 'wouter/memory-location';
import type { Actor } from 'xstate';
import type { sessionMachine } from '../../../src/machines/session/sessionMachine.ts';
import { SessionActorContext } from '../../../src/machines/session/useSession.ts';
import { AppConfigContext } from '../../../src/views/appConfig.ts';
import { AppLayout } from '../../../src/views/layout/AppLayout.tsx';
import { NO_PUBLIC_LINKS } from '../../../src/test/renderApp.tsx';

/** The public settings the shell shows (no showcase, a help link, no feedback link). */
export const SHELL_CONFIG = {
  showcaseUrl: null,
  helpUrl: 'https://help.example.org',
  feedbackUrl: null,
  ...NO_PUBLIC_LINKS,
};

/** Renders `page` inside the app's shell (theme, settings, session, router and layout) as the app does. */
export function renderInAppShell(
  page: ReactNode,
  { session, location }: { session: Actor<typeof sessionMachine>; location: ReturnType<typeof memoryLocation> },
) {
  return render(
    <AppConfigContext.Provider value={SHELL_CONFIG}>
      <SessionActorContext.Provider value={session}>
        <Router hook={location.hook}>
          <AppLayout>{page}</AppLayout>
        </Router>
      </SessionActorContext.Provider>
    </AppConfigContext.Provider>,
  );
}
