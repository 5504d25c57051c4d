import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { TIMERS_MS } from "@booking/contracts";
import { choicesOfPage, pageParamsOf, type ListingChoices } from "./listing-choices.ts";

// The experts listing's choices live in the page's address (issue 30.5): Back from a profile and a shared
// link show the same listing. Changing one replaces the address rather than adding a history entry, so
// Back leaves the listing instead of stepping through every filter tried.

/** The choices in the address, and a way to change some of them. */
export function useListingChoices(): { choices: ListingChoices; change: (next: Partial<ListingChoices>) => void } {
  const [params, setParams] = useSearchParams();
  const choices = useMemo(() => choicesOfPage(params), [params]);
  // The router shows a new address in a transition: two changes close together (a price typed, then the
  // other) must build on each other, not both on the address shown when they began.
  const latest = useRef(choices);
  useEffect(() => {
    latest.current = choices;
  }, [choices]);
  const change = useCallback(
    (next: Partial<ListingChoices>) => {
      latest.current = { ...latest.current, ...next };
      setParams(pageParamsOf(latest.current), { replace: true });
    },
    [setParams],
  );
  return { choices, change };
}

/**
 * A choice typed into a field (the search, a price bound): the field shows each key at once, the address
 * (and so the listing's call) follows once typing has stopped for the spec's debounce. When the address
 * changes under the field (Back, a link, "Clear filters"), the field shows the address's value.
 */
export function useTypedChoice(inAddress: string, write: (typed: string) => void): [string, (typed: string) => void] {
  const [typed, setTyped] = useState(inAddress);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const written = useRef<string | null>(null);
  // The timer reads the newest address and `write` (which knows the other choices made since the typing began).
  const latest = useRef({ inAddress, write });
  useEffect(() => {
    latest.current = { inAddress, write };
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    const own = inAddress === written.current;
    written.current = null;
    if (own) return;
    clearTimeout(timer.current);
    setTyped(inAddress);
  }, [inAddress]);
  const type = useCallback((next: string) => {
    setTyped(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (next === latest.current.inAddress) return;
      written.current = next;
      latest.current.write(next);
    }, TIMERS_MS.searchDebounce);
  }, []);
  return [typed, type];
}
