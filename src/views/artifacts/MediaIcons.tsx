/** Decorative icons for files without a picture (hidden from screen readers). */

export function VideoIcon({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="2" y="5" width="14" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M16 10l6-4v12l-6-4z" fill="currentColor" />
    </svg>
  );
}

export function DocumentIcon({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 2h8l5 5v15H6z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M14 2v5h5M9 13h7M9 17h7" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
