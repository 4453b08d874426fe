import styled from 'styled-components';
import { Link } from 'wouter';
import { artifactHref } from '../../machines/viewedFile/useViewedFile.ts';
import type { ViewedFile } from '../../schemas/media.ts';
import type { ViewerOrigin } from './viewerOrigin.ts';
import { theme } from '../theme/theme.ts';

const Back = styled.p`
  margin: 0 0 ${theme.space.sm};
  a,
  button {
    display: inline-flex;
    align-items: center;
    min-height: 24px;
  }
  button {
    padding: 0;
    border: 0;
    background: none;
    color: ${theme.color.primary};
    font: inherit;
    text-decoration: underline;
    cursor: pointer;
  }
`;

/**
 * The way back from a viewer: to the page that opened it; opened from a bare link, to the
 * artifact the file belongs to; failing that, the browser's Back (or, in a tab with no history,
 * the dashboard).
 */
export function ViewerBack({ origin, viewed }: { origin: ViewerOrigin | null; viewed: ViewedFile | null | undefined }) {
  if (origin) {
    return (
      <Back>
        <Link href={origin.backHref}>← Back to {origin.artifactTitle}</Link>
      </Back>
    );
  }
  if (viewed?.artifact) {
    return (
      <Back>
        <Link href={artifactHref(viewed.artifact)}>← Back to {viewed.artifact.title}</Link>
      </Back>
    );
  }
  return (
    <Back>
      {typeof history !== 'undefined' && history.length > 1 ? (
        <button type="button" onClick={() => history.back()}>
          ← Back
        </button>
      ) : (
        <Link href="/dashboard">← Back to the dashboard</Link>
      )}
    </Back>
  );
}
