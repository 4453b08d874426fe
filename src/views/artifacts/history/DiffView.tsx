import styled from 'styled-components';
import { fileSource } from '../../../machines/artifactLifecycle/artifactSelectors.ts';
import type { ArtifactDiff, FieldDiff, FileChange, WordPart } from '../../../machines/artifactHistory/versionDiff.ts';
import { MediaTileContent, Tile, Tiles } from '../MediaList.tsx';
import { theme } from '../../theme/theme.ts';

const Legend = styled.p`
  margin: 0;
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
`;

const Fields = styled.dl`
  margin: 0;
  dt {
    font-weight: ${theme.font.weight.bold};
    overflow-wrap: anywhere;
  }
  dd {
    margin: ${theme.space.xs} 0 ${theme.space.md};
    overflow-wrap: anywhere;
  }
`;

const Text = styled.p`
  margin: 0;
  white-space: pre-wrap;
`;

const Labels = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.xs} ${theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
  li > * {
    display: inline-block;
    padding: 0 ${theme.space.xs};
    border-radius: ${theme.radius.sm};
  }
`;

const Kept = styled.span`
  border: 1px solid ${theme.color.border};
`;

const FileTag = styled.span<{ $added: boolean }>`
  align-self: flex-start;
  padding: 0 ${theme.space.xs};
  border-radius: ${theme.radius.sm};
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.medium};
  color: ${({ $added }) => ($added ? theme.color.success : theme.color.danger)};
  border: 1px solid currentColor;
`;

/**
 * Marked not by colour alone: added text underlined, removed text struck through, each told in
 * words. Styled here once for the whole diff (a long answer has hundreds of marks).
 */
const Wrap = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  min-width: 0;
  ins {
    background: #e3f4e8;
    color: ${theme.color.success};
    text-decoration: underline;
    text-decoration-thickness: 2px;
    text-underline-offset: 2px;
  }
  del {
    background: #fbe9e7;
    color: ${theme.color.danger};
    text-decoration: line-through;
    text-decoration-thickness: 2px;
  }
`;

const Hidden = ({ children }: { children: string }) => <span className="visually-hidden">{children}</span>;

/** What the marks mean (shown above every diff). */
export const DIFF_LEGEND = 'Added text is underlined, removed text is struck through.';
export const NO_DIFFERENCES = 'No differences in the answers or files.';

/** A run of words; an added or removed one is marked without the spaces around it. */
function Part({ part }: { part: WordPart }) {
  if (part.change === 'same') return <>{part.text}</>;
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(part.text) ?? [];
  const marked = core === '' ? part.text : core;
  return (
    <>
      {core === '' ? null : lead}
      {part.change === 'added' ? (
        <ins>
          <Hidden>[added: </Hidden>
          {marked}
          <Hidden>]</Hidden>
        </ins>
      ) : (
        <del>
          <Hidden>[removed: </Hidden>
          {marked}
          <Hidden>]</Hidden>
        </del>
      )}
      {core === '' ? null : trail}
    </>
  );
}

function LabelChanges({ field }: { field: Extract<FieldDiff, { added: string[] }> }) {
  return (
    <Labels>
      {field.removed.map((label) => (
        <li key={`-${label}`}>
          <del>
            <Hidden>Removed: </Hidden>
            {label}
          </del>
        </li>
      ))}
      {field.added.map((label) => (
        <li key={`+${label}`}>
          <ins>
            <Hidden>Added: </Hidden>
            {label}
          </ins>
        </li>
      ))}
      {field.kept.map((label) => (
        <li key={`=${label}`}>
          <Kept>{label}</Kept>
        </li>
      ))}
    </Labels>
  );
}

function FieldChange({ field }: { field: FieldDiff }) {
  if (field.kind === 'text')
    return (
      <Text>
        {field.parts.map((part, i) => (
          <Part key={i} part={part} />
        ))}
      </Text>
    );
  if (field.kind === 'value')
    return (
      <Text>
        {field.before === null ? <em>No response</em> : <Part part={{ change: 'removed', text: field.before }} />}
        {' → '}
        {field.after === null ? <em>No response</em> : <Part part={{ change: 'added', text: field.after }} />}
      </Text>
    );
  return <LabelChanges field={field} />;
}

function FileTiles({ files }: { files: readonly FileChange[] }) {
  return (
    <Tiles>
      {files.map(({ change, kind, media }) => (
        <Tile key={`${change}-${media.id}`}>
          <FileTag $added={change === 'added'}>{change === 'added' ? 'Added' : 'Removed'}</FileTag>
          <a href={fileSource(media.url)} target="_blank" rel="noreferrer">
            <MediaTileContent kind={kind} media={media} />
          </a>
        </Tile>
      ))}
    </Tiles>
  );
}

/**
 * The differences between two states of an artifact, field by field: text word by word, choices
 * and standards tags added and removed, a changed single value, then the files added and removed
 * with their thumbnails (a removed file stays viewable).
 */
export function DiffView({ diff, filesHeading = 'Files' }: { diff: ArtifactDiff; filesHeading?: string }) {
  if (diff.fields.length === 0 && diff.files.length === 0) return <Legend>{NO_DIFFERENCES}</Legend>;
  return (
    <Wrap>
      <Legend>{DIFF_LEGEND}</Legend>
      {diff.fields.length > 0 ? (
        <Fields>
          {diff.fields.map((field) => (
            <div key={field.key}>
              <dt>{field.title}</dt>
              <dd>
                <FieldChange field={field} />
              </dd>
            </div>
          ))}
        </Fields>
      ) : null}
      {diff.files.length > 0 ? (
        <Fields>
          <div>
            <dt>{filesHeading}</dt>
            <dd>
              <FileTiles files={diff.files} />
            </dd>
          </div>
        </Fields>
      ) : null}
    </Wrap>
  );
}
