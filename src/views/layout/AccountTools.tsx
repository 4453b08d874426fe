import type { ComponentProps } from 'react';
import styled from 'styled-components';
import { NotificationBell } from '../notifications/NotificationBell.tsx';
import { theme } from '../theme/theme.ts';
import { UserMenu } from './UserMenu.tsx';

// The phone menu's account items come in the same chunk as the bell and the user menu.
export { PhoneAccount } from './PhoneAccount.tsx';

const Account = styled.div`
  @media ${theme.media.phone} {
    display: none;
  }
`;

/**
 * The signed-in end of the header bar: the notification bell and the user menu. It loads with the
 * first signed-in page (a chunk of its own), so the sign-in page never carries it.
 */
export function AccountTools(menu: ComponentProps<typeof UserMenu>) {
  return (
    <>
      <NotificationBell />
      <Account>
        <UserMenu {...menu} />
      </Account>
    </>
  );
}
