import { useEffect, useRef } from 'react';

/**
 * Calls `report` when the values taken from the address change after the first render (Back,
 * Forward, a link): the machine, which received the first values as input, hears of the change.
 * It ignores values it already holds, so its own navigation does not echo back.
 */
export function useRouteSync<T extends readonly unknown[]>(values: T, report: (...values: T) => void): void {
  const previous = useRef(values);
  const key = JSON.stringify(values);
  useEffect(() => {
    if (JSON.stringify(previous.current) === key) return;
    previous.current = values;
    report(...values);
    // `key` stands for `values`; `report` is a stable intent function.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
