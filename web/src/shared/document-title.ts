import { useEffect } from "react";

/** "{title} | Expert Sessions" while the page is shown. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} | Expert Sessions` : "Expert Sessions";
  }, [title]);
}
