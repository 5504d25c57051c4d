import type { ReactNode } from "react";
import { Link as RouterLink, useLocation, useNavigate } from "react-router-dom";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import Link from "@mui/material/Link";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { displayName, useAuth } from "./auth.tsx";
import { HELP_URL, useFlags } from "./flags.ts";

/** Styles for phones (below 600 px) only. */
const phoneOnly = (styles: Record<string, string | number>) => ({ "@media (max-width:599.95px)": styles });

export function Logo() {
  return (
    <Link component={RouterLink} to="/" underline="none" sx={{ display: "inline-flex", alignItems: "center", gap: 1, color: "primary.main" }}>
      <Box component="span" aria-hidden="true" sx={{ width: 32, height: 32, borderRadius: 2, bgcolor: "primary.main", color: "#fff", display: "grid", placeItems: "center", fontWeight: 800 }}>
        E
      </Box>
      {/* On a phone the mark alone keeps the header to one row; the link still reads "Expert Sessions". */}
      <Typography component="span" sx={{ fontWeight: 800, fontSize: 20, color: "text.primary", ...phoneOnly({ position: "absolute", width: "1px", height: "1px", overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap" }) }}>
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

/** Header variants of spec section 2: visitor, signed in, slim (logo only). */
export function Header({ slim = false }: { slim?: boolean }) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const user = auth.status === "authenticated" ? auth.user : null;
  const onExpertDashboard = location.pathname.startsWith("/expert-dashboard");
  const onLogout = async () => {
    await auth.logout();
    navigate("/");
  };
  return (
    <header>
      <EnvironmentBanner />
      <AppBar position="static" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: "divider" }}>
        {/* One row on a phone: the links scroll sideways rather than wrap onto more rows. */}
        <Toolbar sx={{ flexWrap: "wrap", gap: 1, py: 1, ...phoneOnly({ flexWrap: "nowrap", minHeight: 56, py: 0, px: 1.5 }) }}>
          <Logo />
          <Box sx={{ flexGrow: 1 }} />
          {!slim && (
            <Box
              component="nav"
              aria-label="Main"
              sx={{
                display: "flex",
                flexWrap: "wrap",
                alignItems: "center",
                gap: 1,
                ...phoneOnly({ flexWrap: "nowrap", minWidth: 0, overflowX: "auto", gap: 0.5, whiteSpace: "nowrap", scrollbarWidth: "none" }),
                "& .MuiButton-root": phoneOnly({ flexShrink: 0, px: 1, minWidth: 0 }),
                "& .header-extra": phoneOnly({ display: "none" }),
              }}
            >
              {user ? (
                <>
                  <Typography sx={{ mr: 1 }} className="header-extra" data-testid="welcome">
                    Welcome back, {displayName(user)}!
                  </Typography>
                  <Button component={RouterLink} to="/search">
                    Find Experts
                  </Button>
                  {user.role === "expert" && !onExpertDashboard && (
                    <Button component={RouterLink} to={`/expert-dashboard/${user.id}`}>
                      Dashboard
                    </Button>
                  )}
                  {user.role === "creator" && (
                    <>
                      <Button component={RouterLink} to={`/creator-dashboard/${user.id}`}>
                        My Bookings
                      </Button>
                      <Button component={RouterLink} to="/account">
                        Account
                      </Button>
                    </>
                  )}
                  <Button variant="outlined" onClick={onLogout}>
                    Logout
                  </Button>
                </>
              ) : (
                <>
                  <Button component={RouterLink} to="/login">
                    Login
                  </Button>
                  <Button variant="contained" component={RouterLink} to="/signup">
                    Create Your Account
                  </Button>
                </>
              )}
              {/* The footer has it too. */}
              <Link href={HELP_URL} target="_blank" rel="noopener noreferrer" className="header-extra" sx={{ ml: 1 }}>
                Need help?
              </Link>
            </Box>
          )}
        </Toolbar>
      </AppBar>
    </header>
  );
}

export function Footer() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: "divider", mt: 6, py: 3, bgcolor: "background.paper" }}>
      <Container sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center", justifyContent: "space-between" }}>
        <Typography variant="body2">© {new Date().getFullYear()} Expert Sessions. All rights reserved.</Typography>
        <Box component="nav" aria-label="Footer" sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
          <Link component={RouterLink} to="/terms">
            Terms and Conditions
          </Link>
          <Link component={RouterLink} to="/about">
            About
          </Link>
          <Link href={HELP_URL} target="_blank" rel="noopener noreferrer">
            Need help?
          </Link>
        </Box>
      </Container>
    </Box>
  );
}

/** A page: skip link, header, main landmark, footer. */
export function Page({ children, slim = false, wide = false, footer = true }: { children: ReactNode; slim?: boolean; wide?: boolean; footer?: boolean }) {
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      <Link href="#main" sx={{ position: "absolute", left: -9999, "&:focus": { left: 8, top: 8, zIndex: 2000, bgcolor: "background.paper", p: 1 } }}>
        Skip to content
      </Link>
      <Header slim={slim} />
      <Box component="main" id="main" tabIndex={-1} sx={{ flexGrow: 1, outline: "none" }}>
        {wide ? children : <Container sx={{ py: 4 }}>{children}</Container>}
      </Box>
      {footer && <Footer />}
    </Box>
  );
}
