import { useSelector } from '../shared/actorReact.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createActor, type InspectionEvent } from 'xstate';
import { currentUser } from '../../services/session.ts';
import { useCurrentUser } from '../session/useSession.ts';
import { isStale, localDraftMachine } from './localDraftMachine.ts';

/** The offer of a draft: when it was typed, and whether the server's copy changed since. */
export interface DraftOffer {
  savedAt: string;
  /** The saved copy changed after the draft was typed. */
  stale: boolean;
  restore: () => void;
  discard: () => void;
}

/**
 * The local draft of a form's text while the calling component is shown: the text is kept as it
 * is typed; a draft left by a crash or a closed tab is offered back (`null`: nothing to offer);
 * when the component goes away inside the app (saved, cancelled, left on purpose) the draft is
 * forgotten. `apply` puts a restored text into the form.
 */
export function useLocalDraft(
  options: { form: string; text: string; current: string; base: string | null; apply: (text: string) => void },
  inspect?: (event: InspectionEvent) => void,
): DraftOffer | null {
  const user = useCurrentUser();
  // Its own actor, not `useActorRef`'s: that one is stopped before this component's clean-up could tell it the form went away.
  const [actor] = useState(() =>
    createActor(localDraftMachine, {
      input: { userId: user?.id ?? null, form: options.form, current: options.current, base: options.base },
      ...(inspect ? { inspect } : {}),
    }),
  );
  const { apply } = options;
  useEffect(() => {
    const subscription = actor.on('draft.restored', (event) => apply(event.text));
    return () => subscription.unsubscribe();
  }, [actor, apply]);
  const last = useRef(options.text);
  useEffect(() => {
    if (last.current === options.text) return;
    last.current = options.text;
    actor.send({ type: 'text.change', text: options.text });
  }, [actor, options.text]);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    actor.start();
    const hidden = () => actor.send({ type: 'page.hidden' });
    window.addEventListener('pagehide', hidden);
    return () => {
      mounted.current = false;
      window.removeEventListener('pagehide', hidden);
      // Gone because the session ended (not the user's choice): the draft stays for the next sign-in.
      // Decided now, when the form goes, not when the timer below runs (someone may have signed in by then).
      const signedIn = currentUser.value !== null;
      // Gone for good only if not mounted again at once (React's development double mount).
      setTimeout(() => {
        if (mounted.current) return;
        if (signedIn) actor.send({ type: 'form.closed' });
        actor.stop();
      }, 0);
    };
  }, [actor]);
  const offer = useSelector(actor, (s) => (s.matches('offering') ? s.context.offer : null));
  const stale = useSelector(actor, (s) => isStale(s.context));
  return useMemo(
    () =>
      offer
        ? {
            savedAt: offer.savedAt,
            stale,
            restore: () => actor.send({ type: 'draft.restore' }),
            discard: () => actor.send({ type: 'draft.discard' }),
          }
        : null,
    [offer, stale, actor],
  );
}
