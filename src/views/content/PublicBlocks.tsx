import styled from 'styled-components';
import type { AppConfig } from '../../schemas/common.ts';
import type { ContactLabels, ContactLine } from './siteContent.ts';

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
  margin-top: ${({ theme }) => theme.space.xxl};
  h2 {
    font-size: ${({ theme }) => theme.font.size.xl};
    color: ${({ theme }) => theme.color.headerBackground};
  }
`;

/** Running text, kept to a comfortable line length. */
export const Prose = styled.div`
  max-width: 70ch;
  p {
    margin: 0 0 ${({ theme }) => theme.space.md};
  }
  ul {
    margin: 0 0 ${({ theme }) => theme.space.md};
    padding-left: ${({ theme }) => theme.space.lg};
  }
  li + li {
    margin-top: ${({ theme }) => theme.space.sm};
  }
`;

/** A white panel on the page background. */
export const Card = styled.div`
  background: ${({ theme }) => theme.color.surface};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  box-shadow: ${({ theme }) => theme.shadow.card};
  padding: ${({ theme }) => theme.space.lg};
  h3 {
    font-size: ${({ theme }) => theme.font.size.lg};
    margin-bottom: ${({ theme }) => theme.space.sm};
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
  gap: ${({ theme }) => theme.space.sm};
  span {
    color: ${({ theme }) => theme.color.textMuted};
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
