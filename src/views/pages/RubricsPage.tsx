import styled from 'styled-components';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { panelStyle } from '../components/cardStyles.ts';
import { lazyPart } from '../components/lazyParts.tsx';
import { theme } from '../theme/theme.ts';

// The same chunk as the shared portfolio's Rubric section (the editor, its machine and the NGSS
// template): imported only on demand in both places, so it stays one chunk of its own.
const RubricPanel = lazyPart(
  () => import('../rubrics/RubricPanel.tsx'),
  'RubricPanel',
  <BusyMessage busy message="Loading the rubrics" />,
);

/** What anyone but a researcher sees. */
export const ONLY_RESEARCHERS_RUBRICS_MESSAGE = 'Only researchers manage the installation’s rubrics.';

const Intro = styled.p`
  max-width: 70ch;
  color: ${theme.color.textMuted};
`;

const Panel = styled.section`
  ${panelStyle}
  min-width: 0;
  padding: ${theme.space.md};
`;

/**
 * `/rubrics`: the installation-wide rubrics (decision 058), which every shared portfolio may
 * choose: made from the NGSS practices or empty, edited (a rubric already scored with gets a new
 * version) and deleted while nothing uses them.
 */
export function RubricsPage() {
  const allowed = useCurrentUser()?.abilities.installationRubrics ?? false;
  return (
    <>
      <PageHeading title="Rubrics" />
      {allowed ? (
        <>
          <Intro>
            These rubrics belong to the whole installation: every shared portfolio’s lead can choose one for her members
            to score with. Editing a rubric that scores were given with makes its next version; the scores keep theirs.
          </Intro>
          <Panel aria-label="Installation-wide rubrics">
            <RubricPanel sharedPortfolioId={null} />
          </Panel>
        </>
      ) : (
        <p>{ONLY_RESEARCHERS_RUBRICS_MESSAGE}</p>
      )}
    </>
  );
}
