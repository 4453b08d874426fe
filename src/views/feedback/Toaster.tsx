import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useLayoutEffect, useRef } from 'react';
import styled from 'styled-components';
import { dismiss, toasts, type Toast } from './toastStore.ts';
import { theme } from '../theme/theme.ts';

const GAP = 16;

const Region = styled.div`
  position: fixed;
  right: ${theme.space.md};
  bottom: ${theme.space.md};
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  z-index: 1100;
  max-width: min(420px, calc(100vw - 32px));
  &:empty {
    pointer-events: none;
  }
`;

const Item = styled.div<{ $tone: Toast['tone'] }>`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space.sm};
  padding: ${theme.space.md};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
  background: ${theme.color.surface};
  border-left: 6px solid
    ${({ $tone }) => ($tone === 'error' ? theme.color.danger : $tone === 'success' ? theme.color.success : theme.color.primary)};
  p {
    margin: 0;
    flex: 1;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

/** At least 24 × 24 px (WCAG 2.2, 2.5.8): 32 here. */
const Close = styled.button`
  flex: none;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 32px;
  height: 32px;
  margin: -6px -6px -6px 0;
  border: none;
  border-radius: ${theme.radius.sm};
  background: none;
  cursor: pointer;
  font-size: 1.25rem;
  line-height: 1;
  color: ${theme.color.textMuted};
`;

type Box = { top: number; bottom: number; left: number; right: number };

/** How much of `b` the box `a` covers (px²). */
const overlap = (a: Box, b: Box): number =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/** What a message must never cover: the focused control, every submit button and whatever is marked `data-keep-clear` (a primary link, a composer) in the window. */
function protectedBoxes(region: HTMLElement): Box[] {
  const found = new Set<Element>();
  const active = document.activeElement;
  if (active && active !== document.body && !region.contains(active)) found.add(active);
  for (const el of document.querySelectorAll('[data-keep-clear], button[type="submit"]'))
    if (!region.contains(el)) found.add(el);
  return [...found]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight);
}

/**
 * Puts the messages where they cover nothing that matters: at the bottom of the window when they
 * can, else at the top, else in the first free band next to what they would cover (failing all,
 * where they cover least).
 */
function place(region: HTMLElement): void {
  region.style.top = '';
  region.style.bottom = '';
  if (region.childElementCount === 0) return;
  const rect = region.getBoundingClientRect();
  const height = rect.height;
  const header = document.querySelector('header')?.getBoundingClientRect();
  const minTop = Math.max(GAP, header && header.bottom > 0 && header.top <= 0 ? header.bottom + GAP / 2 : GAP);
  const maxTop = window.innerHeight - GAP - height;
  const boxes = protectedBoxes(region);
  const candidates = [maxTop, minTop, ...boxes.flatMap((b) => [b.top - GAP / 2 - height, b.bottom + GAP / 2])].filter(
    (t) => t >= minTop - 0.5 && t <= maxTop + 0.5,
  );
  const covered = (top: number) =>
    boxes.reduce((sum, b) => sum + overlap({ top, bottom: top + height, left: rect.left, right: rect.right }, b), 0);
  // The first place that covers nothing; failing that (a window full of protected things), the one covering least.
  const best =
    candidates.find((top) => covered(top) === 0) ??
    candidates.reduce((a, b) => (covered(b) < covered(a) ? b : a), maxTop);
  if (best === maxTop) return;
  region.style.bottom = 'auto';
  region.style.top = `${Math.round(best)}px`;
}

/**
 * The messages of `notify`, announced to screen readers (a polite live region; errors as alerts).
 * They leave by themselves, and move aside so as never to cover the focused control or a
 * primary button.
 */
export function Toaster() {
  useSignals();
  const region = useRef<HTMLDivElement>(null);
  const list = toasts.value;

  // After every render (a message came or went): place them again.
  useLayoutEffect(() => {
    if (region.current) place(region.current);
  });

  // While a message shows, the page may change under it (a Download link appears): look again.
  const showing = list.length > 0;
  useEffect(() => {
    if (!showing) return undefined;
    let frame = 0;
    const observer = new MutationObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => region.current && place(region.current));
    });
    const main = document.querySelector('main');
    if (main) observer.observe(main, { childList: true, subtree: true });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [showing]);

  useEffect(() => {
    let frame = 0;
    const again = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => region.current && place(region.current));
    };
    window.addEventListener('scroll', again, { passive: true });
    window.addEventListener('resize', again);
    document.addEventListener('focusin', again);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', again);
      window.removeEventListener('resize', again);
      document.removeEventListener('focusin', again);
    };
  }, []);

  return (
    <Region ref={region} role="region" aria-label="Notifications" aria-live="polite">
      {list.map((toast) => (
        <Item key={toast.id} $tone={toast.tone} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <p>{toast.message}</p>
          <Close type="button" aria-label="Dismiss message" onClick={() => dismiss(toast.id)}>
            ×
          </Close>
        </Item>
      ))}
    </Region>
  );
}
