/** The one theme of the portal: colour, spacing and type tokens (WCAG 2.1 AA contrast on white). */
export const theme = {
  color: {
    text: '#1b2a38',
    textMuted: '#4a5a6a',
    background: '#f5f7f9',
    surface: '#ffffff',
    surfaceAlt: '#eef2f5',
    border: '#c9d3dc',
    /** Borders that identify a control (inputs, toggles): 3:1 against every surface. */
    borderStrong: '#75859a',
    primary: '#1f5f8b',
    primaryHover: '#174a6d',
    primaryText: '#ffffff',
    accent: '#2a7352',
    danger: '#b3261e',
    dangerHover: '#8c1d17',
    warning: '#8a5a00',
    success: '#1e6b3a',
    /** The keyboard focus ring: 3:1 against the light surfaces and the dark header alike. */
    focus: '#c26e00',
    headerAccent: '#f0a500',
    headerBackground: '#15324a',
    headerText: '#ffffff',
    overlay: 'rgba(15, 25, 35, 0.55)',
  },
  space: { xxs: '2px', xs: '4px', sm: '8px', md: '16px', lg: '24px', xl: '32px', xxl: '48px' },
  radius: { sm: '4px', md: '8px', pill: '999px' },
  font: {
    family: "'Source Sans 3', 'Segoe UI', system-ui, -apple-system, 'Helvetica Neue', Arial, sans-serif",
    mono: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
    size: { xs: '0.75rem', sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '1.5rem', xxl: '2rem' },
    weight: { regular: 400, medium: 600, bold: 700 },
  },
  shadow: {
    card: '0 1px 2px rgba(15, 25, 35, 0.08), 0 1px 4px rgba(15, 25, 35, 0.06)',
    popover: '0 8px 24px rgba(15, 25, 35, 0.18)',
  },
  layout: { maxWidth: '1200px', headerHeight: '64px', tabletWidth: '768px' },
  /**
   * The layouts: phones (the header folds into a Menu button), stacked (below 900 px: the
   * artifact browsers show the table or the chosen artifact, one at a time), and side by side.
   */
  media: {
    phone: '(max-width: 767px)',
    /** Too narrow for table columns: rows become cards. */
    compact: '(max-width: 639px)',
    /** A table narrower than its columns (a container query): its rows become cards. */
    compactTable: '(max-width: 559px)',
    stacked: '(max-width: 899px)',
    sideBySide: '(min-width: 900px)',
  },
} as const;
