import { lazy, Suspense, useState, type ReactNode } from "react";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import CssBaseline from "@mui/material/CssBaseline";
import GlobalStyles from "@mui/material/GlobalStyles";
import { ThemeProvider } from "@mui/material/styles";
import { AuthProvider, useAuth } from "./shared/auth.tsx";
import { CrashBoundary } from "./shared/crash-boundary.tsx";
import { defaultFlags, FlagsContext, type Flags } from "./shared/flags.ts";
import { createQueryClient } from "./shared/query-client.ts";
import { theme } from "./shared/theme.ts";

/** The realtime booking feed, loaded once someone is signed in: a visitor's first page need not carry it (issue 19). */
const BookingUpdates = lazy(async () => ({ default: (await import("./shared/realtime.tsx")).BookingUpdates }));

function SignedInUpdates() {
  const { status } = useAuth();
  if (status !== "authenticated") return null;
  return (
    <Suspense fallback={null}>
      <BookingUpdates />
    </Suspense>
  );
}

/** Theme, flags, query cache, auth and the realtime booking feed. */
export function AppProviders({
  children,
  flags = defaultFlags,
  queryClient,
}: {
  children: ReactNode;
  flags?: Flags;
  queryClient?: QueryClient;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <GlobalStyles
        styles={{
          ".visually-hidden": {
            position: "absolute",
            width: 1,
            height: 1,
            padding: 0,
            margin: -1,
            overflow: "hidden",
            clip: "rect(0 0 0 0)",
            whiteSpace: "nowrap",
            border: 0,
          },
          "@keyframes challenge-scroll": { from: { transform: "translateX(0)" }, to: { transform: "translateX(-50%)" } },
        }}
      />
      <FlagsContext.Provider value={flags}>
        <QueryClientProvider client={client}>
          <AuthProvider>
            <SignedInUpdates />
            <CrashBoundary>{children}</CrashBoundary>
          </AuthProvider>
        </QueryClientProvider>
      </FlagsContext.Provider>
    </ThemeProvider>
  );
}
