import { useId } from 'react';
import styled from 'styled-components';
import type { DraftOffer } from '../../machines/localDraft/useLocalDraft.ts';
import { Button } from './Button.tsx';
import { formatWhen } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  padding: ${theme.space.sm} ${theme.space.md};
  border: 1px solid ${theme.color.primary};
  border-left-width: 4px;
  border-radius: ${theme.radius.md};
  background: ${theme.color.surfaceAlt};
  p {
    margin: 0;
    flex: 1 1 16rem;
  }
  div {
    display: flex;
    gap: ${theme.space.sm};
  }
`;

/** The question of a draft: "Restore your unsaved text from 10:42am?" with Restore and Discard. */
export function draftQuestion(offer: Pick<DraftOffer, 'savedAt' | 'stale'>, now = new Date()): string {
  const question = `Restore your unsaved text from ${formatWhen(offer.savedAt, now)}?`;
  return offer.stale
    ? `${question} The saved copy was changed after this text was typed: compare before saving.`
    : question;
}

/**
 * The offer of a local draft above its form: the question, Restore (the draft goes into the box)
 * and Discard (it is forgotten).
 */
export function DraftOfferBar({
  offer,
  what,
}: {
  offer: DraftOffer;
  /** e.g. 'comment', for the buttons' names. */ what: string;
}) {
  const textId = useId();
  return (
    <Bar role="group" aria-label={`Unsaved ${what}`} aria-describedby={textId}>
      <p id={textId}>{draftQuestion(offer)}</p>
      <div>
        <Button type="button" $small onClick={offer.restore}>
          Restore
        </Button>
        <Button type="button" $small $variant="secondary" onClick={offer.discard}>
          Discard
        </Button>
      </div>
    </Bar>
  );
}
