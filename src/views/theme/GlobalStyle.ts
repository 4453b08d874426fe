import { createGlobalStyle } from 'styled-components';
import { theme } from './theme.ts';

/** Base styles: box sizing, type, and a focus ring that is always visible for keyboard users. */
export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    font-family: ${theme.font.family};
    font-size: ${theme.font.size.md};
    line-height: 1.5;
    color: ${theme.color.text};
    background: ${theme.color.background};
  }
  #root { min-height: 100vh; display: flex; flex-direction: column; }
  h1, h2, h3, h4 { line-height: 1.25; margin: 0 0 ${theme.space.md}; }
  a { color: ${theme.color.primary}; }
  a:hover { color: ${theme.color.primaryHover}; }
  :focus-visible,
  /* A player's own controls (play, volume, …) live in the browser's shadow tree: the player shows the ring. */
  video:focus-within:not(:focus),
  audio:focus-within:not(:focus) {
    outline: 3px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  button, input, select, textarea { font: inherit; color: inherit; }
  img, video { max-width: 100%; }
  .visually-hidden {
    position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
    overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { animation-duration: 0.01ms !important; transition-duration: 0.01ms !important; }
  }
`;
