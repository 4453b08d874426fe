import { Link } from 'wouter';
import styled from 'styled-components';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { useAppConfig } from '../appConfig.ts';
import { footerContent } from '../content/footerContent.ts';
import { paths } from '../paths.ts';

const Bar = styled.footer`
  margin-top: auto;
  background: ${({ theme }) => theme.color.surface};
  border-top: 1px solid ${({ theme }) => theme.color.border};
  color: ${({ theme }) => theme.color.textMuted};
  font-size: ${({ theme }) => theme.font.size.sm};
`;

const Inner = styled.div`
  max-width: ${({ theme }) => theme.layout.maxWidth};
  margin: 0 auto;
  padding: ${({ theme }) => theme.space.md};
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  align-items: center;
  justify-content: space-between;
  ul {
    display: flex;
    gap: ${({ theme }) => theme.space.md};
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
