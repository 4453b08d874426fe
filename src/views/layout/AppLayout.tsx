import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { Toaster } from '../feedback/Toaster.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { theme } from '../theme/theme.ts';

const SkipLink = styled.a`
  position: absolute;
  left: ${theme.space.md};
  top: -100px;
  z-index: 2000;
  padding: ${theme.space.sm} ${theme.space.md};
  background: ${theme.color.surface};
  color: ${theme.color.primary};
  border-radius: ${theme.radius.sm};
  box-shadow: ${theme.shadow.popover};
  &:focus {
    top: ${theme.space.sm};
  }
`;

const Main = styled.main`
  flex: 1;
  width: 100%;
  max-width: ${theme.layout.maxWidth};
  margin: 0 auto;
  padding: ${theme.space.lg} ${theme.space.md};
  &:focus {
    outline: none;
  }
`;

/**
 * When the page changes and the focused control went with the old page (a form's button that
 * led elsewhere), focus moves to the main region: keyboard and screen reader users continue at
 * the new page's content instead of at the top of the document. Focus that is still somewhere
 * (a navigation link, a select that rewrote the address) stays where it is.
 */
function useFocusKeptAcrossPages(main: RefObject<HTMLElement | null>): void {
  const [location] = useLocation();
  const previous = useRef(location);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    const active = document.activeElement;
    if (active === null || active === document.body) main.current?.focus({ preventScroll: true });
  }, [location, main]);
}

/** Skip link, header, main content, footer and the notification area. */
export function AppLayout({ children }: { children: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  useFocusKeptAcrossPages(main);
  return (
    <>
      <SkipLink href="#main-content">Skip to main content</SkipLink>
      <Header />
      <Main ref={main} id="main-content" tabIndex={-1}>
        {children}
      </Main>
      <Footer />
      <Toaster />
    </>
  );
}
