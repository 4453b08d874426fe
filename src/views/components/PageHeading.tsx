import { useEffect, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

const Wrap = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${theme.space.md};
  margin-bottom: ${theme.space.lg};
  h1 {
    margin: 0;
    font-size: ${theme.font.size.xl};
    letter-spacing: 0.04em;
  }
`;

/** The page title (the page's one `h1`) with optional actions beside it. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Wrap>
      <h1>{title}</h1>
      {children ? <div>{children}</div> : null}
    </Wrap>
  );
}

/** Sets the browser tab's title for the page. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · PracticeFolio`;
  }, [title]);
}
