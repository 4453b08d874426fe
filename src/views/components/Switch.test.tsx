import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Switch } from './Switch.tsx';

function Harness({ disabled = false, onChange }: { disabled?: boolean; onChange: (v: boolean) => void }) {
  const [on, setOn] = useState(false);
  return (
    <Switch
      checked={on}
      label="Notifications"
      disabled={disabled}
      description={disabled ? 'Not available here' : undefined}
      onChange={(v) => {
        onChange(v);
        setOn(v);
      }}
    />
  );
}

describe('Switch', () => {
  it('is a named switch that flips with a click, Space and Enter', async () => {
    const onChange = vi.fn<(v: boolean) => void>();
    const ux = userEvent.setup();
    render(<Harness onChange={onChange} />);
    const control = screen.getByRole('switch', { name: 'Notifications' });
    expect(control.getAttribute('aria-checked')).toBe('false');
    await ux.click(control);
    expect(control.getAttribute('aria-checked')).toBe('true');
    await ux.keyboard(' ');
    expect(control.getAttribute('aria-checked')).toBe('false');
    await ux.keyboard('{Enter}');
    expect(control.getAttribute('aria-checked')).toBe('true');
    expect(onChange.mock.calls).toEqual([[true], [false], [true]]);
  });

  it('when disabled stays reachable by keyboard, explains why, and does not flip', async () => {
    const onChange = vi.fn<(v: boolean) => void>();
    const ux = userEvent.setup();
    render(<Harness disabled onChange={onChange} />);
    await ux.tab();
    const control = screen.getByRole('switch', { name: 'Notifications' });
    expect(document.activeElement).toBe(control);
    expect(control.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(control.getAttribute('aria-describedby')!)?.textContent).toBe('Not available here');
    await ux.keyboard(' ');
    await ux.click(control);
    expect(control.getAttribute('aria-checked')).toBe('false');
    expect(onChange).not.toHaveBeenCalled();
  });
});
