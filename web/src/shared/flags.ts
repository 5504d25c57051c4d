// Product flags of spec section 2. Set at build time through Vite's environment
// (VITE_EXPERT_ONLY_MODE=true); tests pass their own through FlagsProvider.

import { createContext, useContext } from "react";

export type Flags = {
  /** Experts may reach only their own area; creator screens sit behind the admin/expert gate; unknown paths go to /. */
  expertOnlyMode: boolean;
  /** The expert dashboard's Bookings, Payments and Account tabs. */
  showBookingsTab: boolean;
  showPaymentsTab: boolean;
  showAccountTab: boolean;
  /** The environment banner (never in production builds). */
  showEnvironmentBanner: boolean;
};

// Each variable is read as `import.meta.env.NAME`, which Vite replaces at build time.
export const defaultFlags: Flags = {
  expertOnlyMode: import.meta.env.VITE_EXPERT_ONLY_MODE === "true",
  showBookingsTab: import.meta.env.VITE_HIDE_BOOKINGS_TAB !== "true",
  showPaymentsTab: import.meta.env.VITE_HIDE_PAYMENTS_TAB !== "true",
  showAccountTab: import.meta.env.VITE_HIDE_ACCOUNT_TAB !== "true",
  showEnvironmentBanner: !import.meta.env.PROD,
};

export const FlagsContext = createContext<Flags>(defaultFlags);

export const useFlags = (): Flags => useContext(FlagsContext);

/**
 * Where 'Need help?' in the header and footer leads: our own help page, or the address in HELP_URL
 * when the build was given one (issue 27.3; the spec's help domain does not exist).
 */
export const HELP_URL: string = (import.meta.env.HELP_URL as string | undefined) || "/help";

/** Whether the help link leaves the app (then it opens in a new tab). */
export const helpIsElsewhere = (url: string): boolean => /^https?:\/\//.test(url);
