import { lazy, Suspense, useState, type ReactNode } from "react";
import { Link as RouterLink, useLocation, useNavigate } from "react-router-dom";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import MenuIcon from "@mui/icons-material/Menu";
import type { SxProps, Theme } from "@mui/material/styles";
import { displayName, useAuth } from "./auth.tsx";
import { HELP_URL, helpIsElsewhere, useFlags } from "./flags.ts";
import { greetingFor } from "./greeting.ts";

// Shown only after a navigation that carries a notice: not part of a first page (issue 19).
const Alert = lazy(() => import("@mui/material/Alert"));
const HeaderMenu = lazy(async () => ({ default: (await import("./header-menu.tsx")).HeaderMenu }));

/** Styles for phones (below 600 px) only. */
const phoneOnly = (styles: Record<string, string | number>) => ({ "@media (max-width:599.95px)": styles });

export function Logo() {
  return (
    <Link
      component={RouterLink}
      to="/"
      underline="none"
      sx={{ display: "inline-flex", alignItems: "center", gap: 1, color: "primary.main" }}
    >
      <Box
        component="span"
        aria-hidden="true"
        sx={{
          width: 32,
          height: 32,
          borderRadius: 2,
          bgcolor: "primary.main",
          color: "#fff",
          display: "grid",
          placeItems: "center",
          fontWeight: 800,
        }}
      >
        E
      </Box>
      {/* On a phone the mark alone keeps the header to one row; the link still reads "Expert Sessions". */}
      <Typography
        component="span"
        sx={{
          fontWeight: 800,
          fontSize: 20,
          color: "text.primary",
          ...phoneOnly({
            position: "absolute",
            width: "1px",
            height: "1px",
            overflow: "hidden",
            clip: "rect(0 0 0 0)",
            whiteSpace: "nowrap",
          }),
        }}
      >
        Expert Sessions
      </Typography>
    </Link>
  );
}

function EnvironmentBanner() {
  const flags = useFlags();
  if (!flags.showEnvironmentBanner) return null;
  return (
    <Box role="note" sx={{ bgcolor: "#5d4037", color: "#fff", textAlign: "center", py: 0.5, fontSize: 13 }}>
      Development environment
    </Box>
  );
}

export type HeaderLink =
  { label: string; to: string; variant?: "outlined" | "contained" } | { label: string; onClick: () => void; variant?: "outlined" };

/** Header variants of spec section 2: visitor, signed in, slim (logo only). On a phone the links sit behind a Menu button. */
export function Header({ slim = false }: { slim?: boolean }) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  // Mounted from the first press on, so closing keeps its transition and focus return.
  const [menuOpened, setMenuOpened] = useState(false);
  const user = auth.status === "authenticated" ? auth.user : null;
  const onExpertDashboard = location.pathname.startsWith("/expert-dashboard");
  const onLogout = async () => {
    await auth.logout();
    navigate("/");
  };
  const links: HeaderLink[] = user
    ? [
        { label: "Find Experts", to: "/search" },
        ...(user.role === "expert" && !onExpertDashboard ? [{ label: "Dashboard", to: `/expert-dashboard/${user.id}` }] : []),
        ...(user.role === "creator"
          ? [
              { label: "My Bookings", to: `/creator-dashboard/${user.id}` },
              { label: "Account", to: "/account" },
            ]
          : []),
        { label: "Logout", onClick: () => void onLogout(), variant: "outlined" },
      ]
    : [
        { label: "Login", to: "/login" },
        { label: "Create Your Account", to: "/signup", variant: "contained" },
      ];
  return (
    <header>
      <EnvironmentBanner />
      {/* A div: MUI's AppBar is a <header> of its own, a second banner inside this one (issue 27.21). */}
      <AppBar component="div" position="static" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: "divider" }}>
        <Toolbar sx={{ flexWrap: "wrap", gap: 1, py: 1, ...phoneOnly({ flexWrap: "nowrap", minHeight: 56, py: 0, px: 1.5 }) }}>
          <Logo />
          <Box sx={{ flexGrow: 1 }} />
          {/* Phone and wide headers are both drawn, one shown by the screen's width: chosen in CSS,
              the prerendered landing page (built without a screen) is right on a phone at once. */}
          {!slim && (
            <Box sx={{ display: "none", alignItems: "center", minWidth: 0, ...phoneOnly({ display: "flex" }) }}>
              {user && (
                <Typography variant="body2" sx={{ mr: 1, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                  {displayName(user)}
                </Typography>
              )}
              <IconButton
                aria-label="Menu"
                aria-haspopup="menu"
                aria-expanded={!!menu}
                aria-controls={menu ? "header-menu" : undefined}
                onClick={(e) => (setMenu(e.currentTarget), setMenuOpened(true))}
              >
                <MenuIcon />
              </IconButton>
              {menuOpened && (
                <Suspense fallback={null}>
                  <HeaderMenu anchor={menu} links={links} onClose={() => setMenu(null)} />
                </Suspense>
              )}
            </Box>
          )}
          {!slim && (
            <Box
              component="nav"
              aria-label="Main"
              sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1, ...phoneOnly({ display: "none" }) }}
            >
              {user && (
                <Typography sx={{ mr: 1 }} data-testid="welcome">
                  {greetingFor(user.id)}, {displayName(user)}!
                </Typography>
              )}
              {links.map((l) =>
                "to" in l ? (
                  <Button key={l.label} component={RouterLink} to={l.to} variant={l.variant ?? "text"}>
                    {l.label}
                  </Button>
                ) : (
                  <Button key={l.label} onClick={l.onClick} variant={l.variant ?? "text"}>
                    {l.label}
                  </Button>
                ),
              )}
              <HelpLink sx={{ ml: 1 }} />
            </Box>
          )}
        </Toolbar>
      </AppBar>
    </header>
  );
}

/** "Need help?": our help page in the same tab, or HELP_URL's site in a new one. */
function HelpLink({ sx }: { sx?: SxProps<Theme> }) {
  return helpIsElsewhere(HELP_URL) ? (
    <Link href={HELP_URL} target="_blank" rel="noopener noreferrer" sx={sx}>
      Need help?
    </Link>
  ) : (
    <Link component={RouterLink} to={HELP_URL} sx={sx}>
      Need help?
    </Link>
  );
}

export function Footer() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: "divider", mt: 6, py: 3, bgcolor: "background.paper" }}>
      <Container sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center", justifyContent: "space-between" }}>
        {/* The landing page is prerendered at build time: in a new year its year differs until the next build. */}
        <Typography variant="body2" suppressHydrationWarning>
          © {new Date().getFullYear()} Expert Sessions. All rights reserved.
        </Typography>
        <Box component="nav" aria-label="Footer" sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
          <Link component={RouterLink} to="/terms">
            Terms and Conditions
          </Link>
          <Link component={RouterLink} to="/about">
            About
          </Link>
          <HelpLink />
        </Box>
      </Container>
    </Box>
  );
}

/** A one-line notice a page was reached with (`navigate(to, { state: { notice } })`): "Your email is confirmed." */
export function arrivalNoticeOf(state: unknown): string | null {
  const notice = (state as { notice?: unknown } | null)?.notice;
  return typeof notice === "string" && notice ? notice : null;
}

function ArrivalNotice() {
  const notice = arrivalNoticeOf(useLocation().state);
  if (!notice) return null;
  return (
    <Container sx={{ pt: 3 }}>
      <Suspense fallback={null}>
        <Alert severity="success" role="status">
          {notice}
        </Alert>
      </Suspense>
    </Container>
  );
}

/** A page: skip link, header, main landmark (with the notice it was reached with, if any), footer. */
export function Page({
  children,
  slim = false,
  wide = false,
  footer = true,
}: {
  children: ReactNode;
  slim?: boolean;
  wide?: boolean;
  footer?: boolean;
}) {
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      <Link
        href="#main"
        sx={{ position: "absolute", left: -9999, "&:focus": { left: 8, top: 8, zIndex: 2000, bgcolor: "background.paper", p: 1 } }}
      >
        Skip to content
      </Link>
      <Header slim={slim} />
      <Box component="main" id="main" tabIndex={-1} sx={{ flexGrow: 1, outline: "none" }}>
        <ArrivalNotice />
        {wide ? children : <Container sx={{ py: 4 }}>{children}</Container>}
      </Box>
      {footer && <Footer />}
    </Box>
  );
}

/** A page of one card under a slim header: the pages links in mails open, and what leads to them. */
export function CardPage({ title, width = 440, children }: { title: string; width?: number; children: ReactNode }) {
  return (
    <Page slim>
      <Paper component="section" variant="outlined" sx={{ maxWidth: width, mx: "auto", p: { xs: 3, sm: 4 }, display: "grid", gap: 2 }}>
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        {children}
      </Paper>
    </Page>
  );
}
