import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { createActorContext, duringUserInput, useExternalValue, useSelector } from './actorReact.ts';

const counter = setup({
  types: {
    context: {} as { count: number; label: string },
    events: {} as { type: 'add' } | { type: 'rename'; label: string } | { type: 'fail' },
  },
}).createMachine({
  context: { count: 0, label: 'a' },
  on: {
    add: { actions: assign({ count: ({ context }) => context.count + 1 }) },
    rename: { actions: assign({ label: ({ event }) => event.label }) },
    fail: {
      actions: () => {
        throw new Error('the machine broke');
      },
    },
  },
});

function Count({ actor }: { actor: ReturnType<typeof createActor<typeof counter>> }) {
  const count = useSelector(actor, (s) => s.context.count);
  return (
    <button type="button" onClick={() => actor.send({ type: 'add' })}>
      {count}
    </button>
  );
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ?? this.props.children;
  }
}

/**
 * Runs `check` as the browser runs the app, outside React's test `act` (which would draw every
 * update at once and so hide whether a change is drawn as a transition).
 */
async function outsideAct(check: () => Promise<void>): Promise<void> {
  const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const before = scope.IS_REACT_ACT_ENVIRONMENT;
  scope.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    await check();
  } finally {
    if (before === undefined) delete scope.IS_REACT_ACT_ENVIRONMENT;
    else scope.IS_REACT_ACT_ENVIRONMENT = before;
  }
}

describe('useSelector', () => {
  it('draws a change made by the user’s click before the handler returns to the browser', () => {
    const actor = createActor(counter).start();
    render(<Count actor={actor} />);
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('1');
  });

  it('draws a change from elsewhere (an answer, a timer) as a transition: not in the same task', async () => {
    const actor = createActor(counter).start();
    render(<Count actor={actor} />);
    await outsideAct(async () => {
      expect(duringUserInput()).toBe(false);
      actor.send({ type: 'add' });
      // A render at once (what useSyncExternalStore does) would be drawn by the next microtask.
      await Promise.resolve();
      await Promise.resolve();
      expect(screen.getByRole('button').textContent).toBe('0');
      await waitFor(() => expect(screen.getByRole('button').textContent).toBe('1'));
    });
  });

  it('renders again only when the selected part changes', () => {
    const actor = createActor(counter).start();
    const renders = vi.fn();
    function Label() {
      const label = useSelector(
        actor,
        (s) => ({ label: s.context.label }),
        (a, b) => a.label === b.label,
      );
      renders(label);
      return <p>{label.label}</p>;
    }
    render(<Label />);
    act(() => actor.send({ type: 'add' }));
    expect(renders).toHaveBeenCalledTimes(1);
    act(() => actor.send({ type: 'rename', label: 'b' }));
    expect(screen.getByText('b')).toBeTruthy();
    expect(renders).toHaveBeenCalledTimes(2);
  });

  it('misses no change made between its render and its subscription', () => {
    const actor = createActor(counter).start();
    function Early() {
      const count = useSelector(actor, (s) => s.context.count);
      if (count === 0) actor.send({ type: 'add' });
      return <p>count {count}</p>;
    }
    act(() => {
      render(<Early />);
    });
    expect(screen.getByText('count 1')).toBeTruthy();
  });

  it('reads nothing from no actor, and follows a new actor', () => {
    const first = createActor(counter).start();
    first.send({ type: 'add' });
    const second = createActor(counter).start();
    function Maybe({ actor }: { actor: typeof first | undefined }) {
      const count = useSelector(actor, (s) => (s ? s.context.count : 'none'));
      return <p>{`value ${count}`}</p>;
    }
    const { rerender } = render(<Maybe actor={undefined} />);
    expect(screen.getByText('value none')).toBeTruthy();
    rerender(<Maybe actor={first} />);
    expect(screen.getByText('value 1')).toBeTruthy();
    rerender(<Maybe actor={second} />);
    expect(screen.getByText('value 0')).toBeTruthy();
  });

  it('throws a failed actor’s error to the nearest error boundary', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const actor = createActor(counter).start();
    actor.subscribe({ error: () => {} });
    render(
      <Boundary>
        <Count actor={actor} />
      </Boundary>,
    );
    act(() => actor.send({ type: 'fail' }));
    expect(screen.getByText('the machine broke')).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});

describe('createActorContext', () => {
  it('provides an actor whose selections follow it', () => {
    const Counter = createActorContext(counter);
    function Shown() {
      const count = Counter.useSelector((s) => s.context.count);
      const actor = Counter.useActorRef();
      return (
        <button type="button" onClick={() => actor.send({ type: 'add' })}>
          {`count ${count}`}
        </button>
      );
    }
    render(
      <Counter.Provider>
        <Shown />
      </Counter.Provider>,
    );
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('count 1');
  });
});

describe('useExternalValue', () => {
  function store(initial: { name: string; status?: string }) {
    let value = initial;
    const listeners = new Set<() => void>();
    const source = {
      get: () => value,
      subscribe: (onChange: () => void) => {
        listeners.add(onChange);
        return () => listeners.delete(onChange);
      },
    };
    const set = (next: typeof value) => {
      value = next;
      for (const listener of listeners) listener();
    };
    return { source, set, listeners };
  }

  it('draws a change from elsewhere as a transition, a change by the user’s click at once, and unsubscribes', async () => {
    const { source, set, listeners } = store({ name: 'Ann' });
    function Name() {
      const { name } = useExternalValue(source);
      return (
        <button type="button" onClick={() => set({ name: 'Cy' })}>
          {name}
        </button>
      );
    }
    const view = render(<Name />);
    expect(screen.getByRole('button').textContent).toBe('Ann');
    await outsideAct(async () => {
      set({ name: 'Bo' });
      await Promise.resolve();
      await Promise.resolve();
      expect(screen.getByRole('button').textContent).toBe('Ann');
      await waitFor(() => expect(screen.getByRole('button').textContent).toBe('Bo'));
    });
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('Cy');
    view.unmount();
    expect(listeners.size).toBe(0);
  });

  it('takes a value with a `status` of "error" for a value, not for a failed actor', () => {
    const { source } = store({ name: 'Dee', status: 'error' });
    function Name() {
      return <p>{useExternalValue(source).name}</p>;
    }
    render(<Name />);
    expect(screen.getByText('Dee')).toBeTruthy();
  });
});
