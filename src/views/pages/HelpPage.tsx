import styled from 'styled-components';
import { useAppConfig } from '../appConfig.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { configuredContacts, ContactList, Prose, Section } from '../content/PublicBlocks.tsx';
import { siteContent, type ContactLabels, type TextSection } from '../content/siteContent.ts';
import { theme } from '../theme/theme.ts';

/** What the Help page says (see the content module). */
export interface HelpContent {
  contacts: ContactLabels;
  help: {
    title: string;
    intro: string;
    sections: readonly TextSection[];
    contactHeading: string;
    contactText: string;
    noContactText: string;
  };
}

const Guide = styled(Prose)`
  section + section {
    margin-top: ${theme.space.lg};
  }
  h2 {
    font-size: ${theme.font.size.lg};
    color: ${theme.color.headerBackground};
  }
`;

/**
 * The portal's own Help page (the user menu's Help unless `HELP_URL` names another guide): how
 * to log in, keep artifacts, share them and, for researchers, export; then the configured
 * contacts.
 */
export function HelpPage({ content = siteContent }: { content?: HelpContent }) {
  const { help } = content;
  const contacts = configuredContacts(content.contacts, useAppConfig());
  return (
    <>
      <PageHeading title={help.title} />
      <Guide>
        <p>{help.intro}</p>
        {help.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
      </Guide>
      <Section aria-labelledby="help-contact">
        <h2 id="help-contact">{help.contactHeading}</h2>
        {contacts.length > 0 ? (
          <>
            <Prose>
              <p>{help.contactText}</p>
            </Prose>
            <ContactList contacts={contacts} />
          </>
        ) : (
          <Prose>
            <p>{help.noContactText}</p>
          </Prose>
        )}
      </Section>
    </>
  );
}
