import { Link } from 'wouter';
import styled from 'styled-components';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { ButtonLink } from '../components/Button.tsx';
import { useDocumentTitle } from '../components/PageHeading.tsx';
import { useAppConfig } from '../appConfig.ts';
import { Card, configuredContacts, ContactList, Prose, Section } from '../content/PublicBlocks.tsx';
import { siteContent, type Audience, type ContactLabels, type StoreBadge } from '../content/siteContent.ts';
import { BrandMark } from '../layout/Header.tsx';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

/** What the Home page says (see the content module). */
export interface HomeContent {
  brand: { name: string; tagline: string };
  contacts: ContactLabels;
  home: {
    documentTitle: string;
    intro: string;
    audiencesHeading: string;
    audiences: readonly Audience[];
    appsHeading: string;
    appsText: string;
    badges: readonly StoreBadge[];
    loginHeading: string;
    loginText: string;
    loginLabel: string;
    signedInHeading: string;
    signedInText: string;
    dashboardLabel: string;
    contactHeading: string;
  };
}

const Hero = styled.div`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${theme.space.xl};
  align-items: center;
  padding: ${theme.space.xl};
  ${panelStyle}
  h1 {
    margin: 0;
    font-size: 2.5rem;
    color: ${theme.color.headerBackground};
  }
  @media (max-width: 640px) {
    grid-template-columns: 1fr;
    justify-items: start;
    padding: ${theme.space.lg};
  }
`;

const Tagline = styled.p`
  margin: ${theme.space.sm} 0 ${theme.space.md};
  font-size: ${theme.font.size.lg};
  font-weight: ${theme.font.weight.medium};
  color: ${theme.color.accent};
`;

const Intro = styled.p`
  margin: 0;
  max-width: 65ch;
`;

const Audiences = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: ${theme.space.md};
`;

const Split = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
  gap: ${theme.space.lg};
  align-items: start;
`;

const Badges = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.md};
  list-style: none;
  margin: ${theme.space.md} 0 0;
  padding: 0;
  a {
    display: inline-block;
    border-radius: 10px;
    line-height: 0;
  }
  img {
    width: 160px;
    height: 48px;
  }
`;

/**
 * The public start page: brand, tagline, who it is for, the mobile apps (each store badge only
 * when its store page is configured), login and the configured contacts.
 */
export function HomePage({ content = siteContent }: { content?: HomeContent }) {
  const user = useCurrentUser();
  const config = useAppConfig();
  const { home, brand } = content;
  const storeUrls = { ios: config.iosAppUrl, android: config.androidAppUrl };
  const badges = home.badges.flatMap((badge) => {
    const url = storeUrls[badge.store];
    return url ? [{ ...badge, url }] : [];
  });
  const contacts = configuredContacts(content.contacts, config);
  useDocumentTitle(home.documentTitle);
  return (
    <>
      <Hero>
        <BrandMark size={96} />
        <div>
          <h1>{brand.name}</h1>
          <Tagline>{brand.tagline}</Tagline>
          <Intro>{home.intro}</Intro>
        </div>
      </Hero>

      <Section aria-labelledby="home-audiences">
        <h2 id="home-audiences">{home.audiencesHeading}</h2>
        <Audiences>
          {home.audiences.map((audience) => (
            <Card key={audience.heading}>
              <h3>{audience.heading}</h3>
              <p>{audience.text}</p>
            </Card>
          ))}
        </Audiences>
      </Section>

      <Split>
        {badges.length > 0 ? (
          <Section aria-labelledby="home-apps">
            <h2 id="home-apps">{home.appsHeading}</h2>
            <Prose>
              <p>{home.appsText}</p>
            </Prose>
            <Badges>
              {badges.map((badge) => (
                <li key={badge.store}>
                  <a href={badge.url}>
                    <img src={badge.image} alt={badge.label} width={160} height={48} />
                  </a>
                </li>
              ))}
            </Badges>
          </Section>
        ) : null}

        {user ? (
          <Section aria-labelledby="home-login">
            <h2 id="home-login">
              {home.signedInHeading}, {user.username}
            </h2>
            <Prose>
              <p>{home.signedInText}</p>
            </Prose>
            <Link href={paths.dashboard} asChild>
              <ButtonLink>{home.dashboardLabel}</ButtonLink>
            </Link>
          </Section>
        ) : (
          <Section aria-labelledby="home-login">
            <h2 id="home-login">{home.loginHeading}</h2>
            <Prose>
              <p>{home.loginText}</p>
            </Prose>
            <Link href={paths.login} asChild>
              <ButtonLink>{home.loginLabel}</ButtonLink>
            </Link>
          </Section>
        )}
      </Split>

      {contacts.length > 0 ? (
        <Section aria-labelledby="home-contact">
          <h2 id="home-contact">{home.contactHeading}</h2>
          <ContactList contacts={contacts} />
        </Section>
      ) : null}
    </>
  );
}
