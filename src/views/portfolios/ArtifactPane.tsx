import { useCallback, useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import { useCompareEvents, useCompareSelection, type CompareRef } from '../../machines/compare/useCompare.ts';
import {
  artifactName,
  isSharedArtifact,
  isSharedPortfolio,
  type BrowsedPortfolio,
} from '../../machines/portfolioBrowser/selectors.ts';
import {
  useArtifactsById,
  useBrowserEvents,
  usePortfolio,
} from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import type { DiffSide } from '../../machines/artifactHistory/versionDiff.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import { COMPARE_MAX } from '../../schemas/catalog.ts';
import { ArtifactDetails } from '../artifacts/ArtifactDetails.tsx';
import { ArtifactView } from '../artifacts/ArtifactView.tsx';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { Button } from '../components/Button.tsx';
import { lazyPart } from '../components/lazyParts.tsx';
import { SharedArtifactPane } from '../shared/browser/SharedArtifactPane.tsx';
import { NOT_IN_PORTFOLIO } from './Notices.tsx';
import { WholeArtifact, WholeSharedArtifact } from './WholeArtifact.tsx';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

// The differences of the two artifacts compared (with the diff library) load on first use.
const CompareDifferences = lazyPart(
  () => import('./CompareDifferences.tsx'),
  'CompareDifferences',
  <BusyMessage busy message="Comparing the artifacts" />,
);

/** Tells the comparison that a personal artifact is there whole (its files are needed for the differences). */
/** A compared artifact as its side read it whole. */
type WholeSide = DiffSide & { id: number };

function Whole({ artifact, onWhole }: { artifact: WholeSide; onWhole: (artifact: WholeSide) => void }) {
  useEffect(() => onWhole(artifact), [artifact, onWhole]);
  return null;
}

/** The chosen artifact grows with its content: answers, reactions and the discussion read in the page. */
const Pane = styled.section`
  position: relative;
  min-width: 0;
  padding: ${theme.space.lg};
  ${panelStyle}
  @media ${theme.media.phone} {
    padding: ${theme.space.md};
  }
`;

/** 'Back to artifacts' (stacked layouts, where the artifact takes the table's place). */
const BackBar = styled.div`
  display: none;
  @media ${theme.media.stacked} {
    display: block;
    margin: -${theme.space.sm} 0 ${theme.space.md};
  }
`;

/** The comparison spans the page's width and grows with its content. */
const CompareArea = styled.section`
  position: relative;
  min-width: 0;
  padding: ${theme.space.lg};
  ${panelStyle}
`;

const Placeholder = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
`;

const CompareGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(${COMPARE_MAX}, minmax(0, 1fr));
  gap: ${theme.space.lg};
  @media ${theme.media.compact} {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const Slot = styled.div`
  min-width: 0;
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  display: flex;
  flex-direction: column;
  gap: ${theme.space.md};
  & > button {
    align-self: flex-start;
  }
`;

const EmptySlot = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  min-height: 160px;
  padding: ${theme.space.md};
  border: 2px dashed ${theme.color.border};
  border-radius: ${theme.radius.md};
  color: ${theme.color.textMuted};
  text-align: center;
`;

/**
 * The detail pane beside the table: the chosen artifact with its actions (or read-only), a
 * note when the artifact of the address is not in the portfolio, or a hint when none is chosen.
 * A shared portfolio's artifact comes with its reactions and comments.
 */
export function ArtifactPane({
  artifactId,
  portfolio,
  readOnly,
  onBack,
}: {
  /** The chosen artifact's id. */
  artifactId: number | null;
  portfolio: BrowsedPortfolio;
  /** Show no actions (researchers in teacher portfolios). */
  readOnly: boolean;
  /** Back to the table (stacked layouts). */
  onBack?: () => void;
}) {
  const headingId = useId();
  const [artifact] = useArtifactsById(artifactId === null ? [] : [artifactId]);
  const { artifactDeleted } = useBrowserEvents();
  const handleDeleted = useCallback((deleted: Artifact) => artifactDeleted(deleted.id), [artifactDeleted]);
  return (
    <Pane aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        Artifact details
      </h2>
      {onBack && artifactId !== null ? (
        <BackBar>
          <Button type="button" $variant="link" onClick={onBack}>
            ← Back to artifacts
          </Button>
        </BackBar>
      ) : null}
      {isSharedPortfolio(portfolio) && artifactId !== null ? (
        <SharedArtifactPane
          key={artifactId}
          artifactId={artifactId}
          portfolio={portfolio}
          artifact={artifact && isSharedArtifact(artifact) ? artifact : null}
        />
      ) : artifact && !isSharedArtifact(artifact) ? (
        <WholeArtifact key={artifact.id} brief={artifact}>
          {(whole) => (
            <ArtifactView
              artifact={whole}
              portfolioId={portfolio.id}
              readOnly={readOnly}
              onDeleted={handleDeleted}
              headingLevel={3}
            />
          )}
        </WholeArtifact>
      ) : artifactId !== null ? (
        <Placeholder role="status">{NOT_IN_PORTFOLIO}</Placeholder>
      ) : (
        <Placeholder>Select an artifact in the table to see it here.</Placeholder>
      )}
    </Pane>
  );
}

/**
 * Compare mode: the picked artifacts side by side (at most two), each read-only; with two, their
 * differences below, field by field (the history's diff: the second picked against the first).
 */
export function CompareView({
  compare,
  onBackToTable,
}: {
  compare: CompareRef;
  /** Back to the table (stacked layouts). */ onBackToTable?: () => void;
}) {
  const headingId = useId();
  const selection = useCompareSelection(compare);
  const artifacts = useArtifactsById(selection);
  const { pick } = useCompareEvents(compare);
  const free = COMPARE_MAX - artifacts.length;
  const portfolio = usePortfolio();
  // The artifacts as their sides read them whole, by id (one page compares one kind).
  const [wholes, setWholes] = useState<Readonly<Record<number, WholeSide>>>({});
  const onWhole = useCallback(
    (whole: WholeSide) => setWholes((known) => (known[whole.id] === whole ? known : { ...known, [whole.id]: whole })),
    [],
  );
  const sides = artifacts.map((a): DiffSide | undefined => wholes[a.id]);
  const [first, second] = sides;
  return (
    <CompareArea aria-labelledby={headingId}>
      {onBackToTable ? (
        <BackBar>
          <Button type="button" $variant="link" onClick={onBackToTable}>
            ↑ Back to the table
          </Button>
        </BackBar>
      ) : null}
      <h2 id={headingId}>Compare Artifacts</h2>
      <CompareGrid>
        {artifacts.map((artifact) => (
          <Slot key={artifact.id}>
            {isSharedArtifact(artifact) ? (
              <WholeSharedArtifact brief={artifact}>
                {(whole) => (
                  <>
                    <ArtifactDetails artifact={whole} headingLevel={3} showGradeLevels />
                    <Whole artifact={whole} onWhole={onWhole} />
                  </>
                )}
              </WholeSharedArtifact>
            ) : (
              <WholeArtifact brief={artifact}>
                {(whole) => (
                  <>
                    <ArtifactDetails artifact={whole} headingLevel={3} showGradeLevels={false} />
                    <Whole artifact={whole} onWhole={onWhole} />
                  </>
                )}
              </WholeArtifact>
            )}
            <Button
              type="button"
              $variant="secondary"
              $small
              aria-label={`Remove from comparison: ${artifactName(artifact)}`}
              onClick={() => pick(artifact.id)}
            >
              Remove from comparison
            </Button>
          </Slot>
        ))}
        {Array.from({ length: free }, (_, i) => (
          <EmptySlot key={`free-${i}`}>
            {artifacts.length === 0 && i === 0
              ? `Tick up to ${COMPARE_MAX} artifacts in the table to compare them side by side.`
              : 'Tick another artifact in the table to compare.'}
          </EmptySlot>
        ))}
      </CompareGrid>
      {portfolio && first && second && artifacts.length === COMPARE_MAX ? (
        <CompareDifferences
          structure={portfolio.structure}
          first={first}
          second={second}
          firstName={artifactName(artifacts[0]!)}
          secondName={artifactName(artifacts[1]!)}
        />
      ) : null}
    </CompareArea>
  );
}
