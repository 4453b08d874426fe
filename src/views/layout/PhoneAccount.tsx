import { Link } from 'wouter';
import styled from 'styled-components';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

/** The account's items inside the phone menu (the user menu takes them on wider screens). */
const Items = styled.div`
  display: none;
  @media ${theme.media.phone} {
    display: block;
    margin-top: ${theme.space.sm};
    padding-top: ${theme.space.sm};
    border-top: 1px solid rgba(255, 255, 255, 0.3);
    p {
      margin: 0 0 ${theme.space.xs};
      padding: 0 12px;
      color: ${theme.color.headerText};
      font-weight: ${theme.font.weight.bold};
    }
    a,
    button {
      display: block;
      width: 100%;
      padding: 12px;
      border: none;
      background: none;
      color: ${theme.color.headerText};
      font: inherit;
      text-align: left;
      text-decoration: none;
      cursor: pointer;
    }
  }
`;

/**
 * The signed-in account's items in the phone menu: the username, Manage Users and Rubrics (when the
 * user may manage accounts and the installation's rubrics), Notification Settings, Help and Log Out. `onChoose` closes the menu.
 */
export function PhoneAccount({
  username,
  manageUsers,
  rubrics = false,
  helpUrl,
  onLogout,
  onChoose,
}: {
  username: string;
  manageUsers: boolean;
  rubrics?: boolean;
  helpUrl: string | null;
  onLogout: () => void;
  onChoose: () => void;
}) {
  return (
    <Items>
      <p>{username}</p>
      <ul>
        {manageUsers ? (
          <li>
            <Link href={paths.users} onClick={onChoose}>
              Manage Users
            </Link>
          </li>
        ) : null}
        {rubrics ? (
          <li>
            <Link href={paths.rubrics} onClick={onChoose}>
              Rubrics
            </Link>
          </li>
        ) : null}
        <li>
          <Link href={paths.notificationSettings} onClick={onChoose}>
            Notification Settings
          </Link>
        </li>
        <li>
          <Link href={paths.appPassword} onClick={onChoose}>
            Mobile App Password
          </Link>
        </li>
        <li>
          {helpUrl ? (
            <a href={helpUrl} target="_blank" rel="noopener noreferrer" onClick={onChoose}>
              Help <span className="visually-hidden">(opens in a new tab)</span>
            </a>
          ) : (
            <Link href={paths.help} onClick={onChoose}>
              Help
            </Link>
          )}
        </li>
        <li>
          <button type="button" onClick={onLogout}>
            Log Out
          </button>
        </li>
      </ul>
    </Items>
  );
}
