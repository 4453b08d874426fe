import { Link } from 'wouter';
import styled from 'styled-components';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { useAppConfig } from '../appConfig.ts';
import { footerContent } from '../content/footerContent.ts';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Bar = styled.footer`
  margin-top: auto;
  background: ${theme.color.surface};
  border-top: 1px solid ${theme.color.border};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Inner = styled.div`
  max-width: ${theme.layout.maxWidth};
  margin: 0 auto;
  padding: ${theme.space.md};
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.md};
  align-items: center;
  justify-content: space-between;
  ul {
    display: flex;
    gap: ${theme.space.md};
    list-style: none;
    margin: 0;
    padding: 0;
    flex-wrap: wrap;
  }
`;

/** The footer: copyright, Privacy Policy, Home, About, and Give Feedback when logged in. */
export function Footer() {
  const user = useCurrentUser();
  const { feedbackUrl } = useAppConfig();
  return (
    <Bar>
      <Inner>
        <p>{footerContent.copyright}</p>
        <nav aria-label="Footer">
          <ul>
            <li>
              <Link href={paths.privacy}>Privacy Policy</Link>
            </li>
            <li>
              <Link href={paths.home}>Home</Link>
            </li>
            <li>
              <Link href={paths.about}>About</Link>
            </li>
            {user && feedbackUrl ? (
              <li>
                <a href={feedbackUrl} target="_blank" rel="noopener noreferrer">
                  Give Feedback <span className="visually-hidden">(opens in a new tab)</span>
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      </Inner>
    </Bar>
  );
}
