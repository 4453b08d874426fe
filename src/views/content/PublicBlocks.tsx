import styled from 'styled-components';
import type { AppConfig } from '../../schemas/common.ts';
import type { ContactLabels, ContactLine } from './siteContent.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

/** The contact lines whose address is configured (research, then support). */
export function configuredContacts(
  labels: ContactLabels,
  config: Pick<AppConfig, 'researchEmail' | 'contactEmail'>,
): ContactLine[] {
  return [
    ...(config.researchEmail ? [{ label: labels.research, email: config.researchEmail }] : []),
    ...(config.contactEmail ? [{ label: labels.support, email: config.contactEmail }] : []),
  ];
}

/** A titled band of a public page. */
export const Section = styled.section`
  margin-top: ${theme.space.xxl};
  h2 {
    font-size: ${theme.font.size.xl};
    color: ${theme.color.headerBackground};
  }
`;

/** Running text, kept to a comfortable line length. */
export const Prose = styled.div`
  max-width: 70ch;
  p {
    margin: 0 0 ${theme.space.md};
  }
  ul {
    margin: 0 0 ${theme.space.md};
    padding-left: ${theme.space.lg};
  }
  li + li {
    margin-top: ${theme.space.sm};
  }
`;

/** A white panel on the page background. */
export const Card = styled.div`
  ${panelStyle}
  padding: ${theme.space.lg};
  h3 {
    font-size: ${theme.font.size.lg};
    margin-bottom: ${theme.space.sm};
  }
  p {
    margin: 0;
  }
`;

const Lines = styled.ul`
  && {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  display: grid;
  gap: ${theme.space.sm};
  span {
    color: ${theme.color.textMuted};
  }
  a {
    overflow-wrap: anywhere;
  }
`;

/** The contact addresses, each as "what it is for: address". */
export function ContactList({ contacts }: { contacts: readonly ContactLine[] }) {
  return (
    <Lines>
      {contacts.map((contact) => (
        <li key={contact.email + contact.label}>
          <span>{contact.label}: </span>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </li>
      ))}
    </Lines>
  );
}
