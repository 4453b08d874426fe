import styled from 'styled-components';
import { PageHeading } from '../components/PageHeading.tsx';
import { useAppConfig } from '../appConfig.ts';
import { configuredContacts, ContactList, Prose } from '../content/PublicBlocks.tsx';
import { siteContent, type ContactLabels, type TextSection } from '../content/siteContent.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

/** What the Privacy page says (see the content module). */
export interface PrivacyContent {
  contacts: ContactLabels;
  privacy: {
    title: string;
    lastModified: string;
    intro: string;
    sections: readonly TextSection[];
    contactHeading: string;
    contactText: string;
    /** What to do when no contact address is configured. */
    noContactText: string;
  };
}

const Policy = styled(Prose)`
  ${panelStyle}
  padding: ${theme.space.xl};
  max-width: 80ch;
  h2 {
    font-size: ${theme.font.size.lg};
    margin-top: ${theme.space.xl};
    color: ${theme.color.headerBackground};
  }
  @media (max-width: 640px) {
    padding: ${theme.space.md};
  }
`;

const Modified = styled.p`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

/** The privacy policy: what is stored, why, who sees it, for how long, and how to have it removed. */
export function PrivacyPage({ content = siteContent }: { content?: PrivacyContent }) {
  const { privacy } = content;
  const contacts = configuredContacts(content.contacts, useAppConfig());
  return (
    <>
      <PageHeading title={privacy.title} />
      <Policy>
        <Modified>{privacy.lastModified}</Modified>
        <p>{privacy.intro}</p>
        {privacy.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {section.list ? (
              <ul>
                {section.list.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
        <section>
          <h2>{privacy.contactHeading}</h2>
          {contacts.length > 0 ? (
            <>
              <p>{privacy.contactText}</p>
              <ContactList contacts={contacts} />
            </>
          ) : (
            <p>{privacy.noContactText}</p>
          )}
        </section>
      </Policy>
    </>
  );
}
