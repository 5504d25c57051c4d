import { useEffect, useState } from "react";

/** setTimeout's longest wait (about 24.8 days); a change later than that is picked up by a later visit. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The time now, read again at `next` (an instant in ms, or null for none): what a report allows changes at the window's
 * opening and closing, and a page left open shows the change then without a reload.
 */
export function useNowUntil(next: (now: number) => number | null): number {
  const [now, setNow] = useState(() => Date.now());
  const at = next(now);
  useEffect(() => {
    if (at === null) return;
    const wait = at - Date.now();
    if (wait > LONGEST_TIMER_MS) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [at]);
  return now;
}
