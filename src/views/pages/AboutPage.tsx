import { useState } from 'react';
import styled from 'styled-components';
import { ButtonLink } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { useAppConfig } from '../appConfig.ts';
import { configuredContacts, ContactList, Prose, Section } from '../content/PublicBlocks.tsx';
import { siteContent, type ContactLabels, type TeamSection } from '../content/siteContent.ts';
import { theme } from '../theme/theme.ts';

/** What the About page says (see the content module). */
export interface AboutContent {
  contacts: ContactLabels;
  about: {
    title: string;
    intro: readonly string[];
    video: { heading: string; title: string; playLabel: string; notice: string };
    learnMore: { text: string; label: string };
    teamHeading: string;
    teamIntro: string;
    team: readonly TeamSection[];
    contactHeading: string;
  };
}

const Top = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  gap: ${theme.space.xl};
  align-items: start;
  @media (max-width: 900px) {
    grid-template-columns: minmax(0, 1fr);
    > section {
      max-width: 560px;
    }
  }
`;

const VideoFrame = styled.div`
  position: relative;
  aspect-ratio: 16 / 9;
  border-radius: ${theme.radius.md};
  overflow: hidden;
  background: ${theme.color.headerBackground};
  box-shadow: ${theme.shadow.card};
  iframe {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    border: 0;
  }
`;

const Poster = styled.button`
  position: absolute;
  inset: 0;
  width: 100%;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.md};
  border: 0;
  cursor: pointer;
  color: ${theme.color.headerText};
  background: linear-gradient(135deg, ${theme.color.headerBackground}, ${theme.color.primary});
  font-size: ${theme.font.size.lg};
  font-weight: ${theme.font.weight.medium};
  &:focus-visible {
    outline-offset: -6px;
  }
  svg {
    transition: transform 0.15s ease-in-out;
  }
  &:hover svg,
  &:focus-visible svg {
    transform: scale(1.08);
  }
`;

const Notice = styled.p`
  margin: ${theme.space.sm} 0 0;
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
`;

const TeamGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: ${theme.space.lg};
  h3 {
    font-size: ${theme.font.size.md};
    text-transform: uppercase;
    letter-spacing: 0.08em;
    color: ${theme.color.textMuted};
    border-bottom: 2px solid ${theme.color.border};
    padding-bottom: ${theme.space.xs};
  }
`;

const Members = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space.md};
  li {
    display: flex;
    gap: ${theme.space.md};
    align-items: flex-start;
  }
  p {
    margin: 0;
  }
  strong {
    display: block;
  }
  p + p {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
  }
`;

const Avatar = styled.span`
  flex: none;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 48px;
  height: 48px;
  border-radius: 50%;
  background: ${theme.color.surfaceAlt};
  border: 2px solid ${theme.color.accent};
  color: ${theme.color.accent};
  font-weight: ${theme.font.weight.bold};
  letter-spacing: 0.04em;
`;

/**
 * The introduction video. Nothing is loaded from the video host until the visitor asks for it:
 * the poster is a plain button, and the player frame is created on its click.
 */
function IntroVideo({ video, youtubeId }: { video: AboutContent['about']['video']; youtubeId: string }) {
  const [playing, setPlaying] = useState(false);
  return (
    <div>
      <VideoFrame>
        {playing ? (
          // The player needs scripts and its own origin's storage, which a sandbox would take away; the
          // frame is cross-origin and the page's CSP allows only this host as a frame source.
          // oxlint-disable-next-line react/iframe-missing-sandbox
          <iframe
            ref={(frame) => frame?.focus()}
            src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(youtubeId)}?autoplay=1&rel=0`}
            title={video.title}
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <Poster type="button" onClick={() => setPlaying(true)}>
            <svg width="72" height="72" viewBox="0 0 72 72" aria-hidden="true" focusable="false">
              <circle cx="36" cy="36" r="34" fill="rgba(255,255,255,0.15)" stroke="#fff" strokeWidth="3" />
              <path d="M29 23v26l21-13z" fill="#fff" />
            </svg>
            {video.playLabel}
          </Poster>
        )}
      </VideoFrame>
      <Notice>{video.notice}</Notice>
    </div>
  );
}

/**
 * The project behind the portal: research aims, introduction video and Learn More (each only
 * when configured), team and the configured contacts.
 */
export function AboutPage({ content = siteContent }: { content?: AboutContent }) {
  const { about } = content;
  const config = useAppConfig();
  const contacts = configuredContacts(content.contacts, config);
  return (
    <>
      <PageHeading title={about.title} />
      <Top>
        <Prose>
          {about.intro.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {config.learnMoreUrl ? (
            <>
              <p>{about.learnMore.text}</p>
              <p>
                <ButtonLink href={config.learnMoreUrl} $variant="secondary">
                  {about.learnMore.label}
                </ButtonLink>
              </p>
            </>
          ) : null}
        </Prose>
        {config.aboutVideoId ? (
          <section aria-label={about.video.heading}>
            <IntroVideo video={about.video} youtubeId={config.aboutVideoId} />
          </section>
        ) : null}
      </Top>

      <Section aria-labelledby="about-team">
        <h2 id="about-team">{about.teamHeading}</h2>
        <Prose>
          <p>{about.teamIntro}</p>
        </Prose>
        <TeamGrid>
          {about.team.map((section) => (
            <div key={section.heading}>
              <h3>{section.heading}</h3>
              <Members>
                {section.members.map((member) => (
                  <li key={member.role + (member.name ?? '')}>
                    <Avatar aria-hidden="true">{member.initials}</Avatar>
                    <div>
                      <p>
                        <strong>{member.name ?? member.role}</strong>
                        {member.name ? member.role : null}
                      </p>
                      <p>{member.description}</p>
                    </div>
                  </li>
                ))}
              </Members>
            </div>
          ))}
        </TeamGrid>
      </Section>

      {contacts.length > 0 ? (
        <Section aria-labelledby="about-contact">
          <h2 id="about-contact">{about.contactHeading}</h2>
          <ContactList contacts={contacts} />
        </Section>
      ) : null}
    </>
  );
}
