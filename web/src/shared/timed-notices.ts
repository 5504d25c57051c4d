import { useCallback, useEffect, useRef, useState } from "react";
import { TIMERS_MS } from "@booking/contracts";

/** A notice that disappears by itself after `ms` (alerts: 5 s). */
export function useTimedNotice<T>(ms: number = TIMERS_MS.alertDismiss): [T | null, (value: T | null) => void] {
  const [value, setValue] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (next: T | null) => {
      clearTimeout(timer.current);
      setValue(next);
      if (next !== null) timer.current = setTimeout(() => setValue(null), ms);
    },
    [ms],
  );
  return [value, show];
}

/** Copy a link and say "Copied" for 2 seconds. */
export function useCopyLink(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useTimedNotice<true>(TIMERS_MS.copiedNotice);
  const copy = useCallback(
    async (text: string) => {
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        // Clipboard refused (insecure context): fall back to a hidden textarea.
        const area = document.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.style.position = "fixed";
        area.style.opacity = "0";
        document.body.appendChild(area);
        area.select();
        try {
          document.execCommand("copy");
        } catch {
          // Nothing more to try.
        }
        area.remove();
      }
      setCopied(true);
    },
    [setCopied],
  );
  return { copied: copied === true, copy };
}
