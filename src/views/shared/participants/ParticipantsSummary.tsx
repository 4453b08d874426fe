import { useId } from 'react';
import styled from 'styled-components';
import {
  useParticipantsEvents,
  useSharedWith,
  type ParticipantsRef,
} from '../../../machines/participants/useParticipants.ts';
import { Button } from '../../components/Button.tsx';
import { theme } from '../../theme/theme.ts';

const Group = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  margin-bottom: ${theme.space.md};
`;

const Caption = styled.span`
  font-weight: ${theme.font.weight.medium};
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.md};
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/**
 * "Currently Shared with": the members' names, with the Edit Participants button that opens the
 * dialog (rendered by the page, outside its form).
 */
export function ParticipantsSummary({
  actorRef,
  disabled,
}: {
  actorRef: ParticipantsRef;
  /** While the page saves. */ disabled: boolean;
}) {
  const people = useSharedWith(actorRef);
  const { open } = useParticipantsEvents(actorRef);
  const captionId = useId();
  return (
    <Group role="group" aria-labelledby={captionId}>
      <Caption id={captionId}>Currently Shared with</Caption>
      <Row>
        <p>{people.length > 0 ? people.map((p) => p.username).join(', ') : 'Nobody yet'}</p>
        <Button type="button" $variant="secondary" $small onClick={open} disabled={disabled}>
          Edit Participants
        </Button>
      </Row>
    </Group>
  );
}
