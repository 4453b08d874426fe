/** Focuses a container's first heading (made focusable for it), or its focus target, without scrolling. */
export function focusHeading(container: HTMLElement | null): void {
  const heading = container?.querySelector<HTMLElement>(
    'h2:not(.visually-hidden), h3:not(.visually-hidden), [data-focus-target]',
  );
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}
