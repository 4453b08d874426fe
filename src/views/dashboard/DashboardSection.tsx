import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

const Section = styled.section`
  margin-bottom: ${theme.space.xl};
`;

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  min-height: 40px;
  margin-bottom: ${theme.space.sm};
  h2 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

/**
 * One part of the dashboard: a titled region (its `h2` names it) with optional actions beside the
 * title; `anchor`: its id, for links to it within the page (it then takes the focus they give it).
 */
export function DashboardSection({
  title,
  actions,
  anchor,
  children,
}: {
  title: string;
  actions?: ReactNode;
  anchor?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Section aria-labelledby={id} {...(anchor ? { id: anchor, tabIndex: -1 } : {})}>
      <Header>
        <h2 id={id}>{title}</h2>
        {actions}
      </Header>
      {children}
    </Section>
  );
}
