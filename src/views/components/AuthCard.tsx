import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { useDocumentTitle } from './PageHeading.tsx';
import { theme } from '../theme/theme.ts';

const Wrap = styled.div`
  display: flex;
  justify-content: center;
  padding: ${theme.space.xl} 0 ${theme.space.xxl};
  @media (max-width: ${theme.layout.tabletWidth}) {
    padding-top: ${theme.space.md};
  }
`;

const Card = styled.section`
  width: 100%;
  max-width: 440px;
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-top: 4px solid ${theme.color.primary};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.card};
  padding: ${theme.space.xl};
  @media (max-width: 480px) {
    padding: ${theme.space.lg} ${theme.space.md};
  }
  h1 {
    margin: 0 0 ${theme.space.sm};
    font-size: ${theme.font.size.xl};
    letter-spacing: 0.02em;
  }
`;

const Intro = styled.p`
  margin: 0 0 ${theme.space.lg};
  color: ${theme.color.textMuted};
`;

/** The buttons of an auth form: side by side, full width on a narrow screen. */
export const AuthActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.lg};
  & > * {
    flex: 1 1 140px;
  }
`;

/**
 * The centred card of the login, forgot-password and reset-password pages: the page's `h1`
 * (also the browser tab's title), a line of explanation and the form.
 */
export function AuthCard({
  title,
  intro,
  children,
}: {
  /** The page title. */
  title: string;
  /** One or two sentences under the title. */
  intro?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  const headingId = useId();
  return (
    <Wrap>
      <Card aria-labelledby={headingId}>
        <h1 id={headingId}>{title}</h1>
        {intro ? <Intro>{intro}</Intro> : null}
        {children}
      </Card>
    </Wrap>
  );
}

/** Moves the focus to the named field of a form (the first one that needs fixing). */
export function focusField(form: HTMLFormElement, name: string | null): void {
  if (!name) return;
  const field = form.elements.namedItem(name);
  if (field instanceof HTMLElement) field.focus();
}
