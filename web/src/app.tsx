import { StrictMode, type ReactNode } from "react";
import { AppProviders } from "./app-providers.tsx";
import { AppRoutes } from "./routes.tsx";

/**
 * The app under a router: `main.tsx` gives it the browser's, `landing/prerender.tsx` a fixed `/`
 * at build time. One tree for both, so the prerendered landing page is what the browser renders.
 */
export function App({ router: Router }: { router: (props: { children: ReactNode }) => ReactNode }) {
  return (
    <StrictMode>
      <Router>
        <AppProviders>
          <AppRoutes />
        </AppProviders>
      </Router>
    </StrictMode>
  );
}
