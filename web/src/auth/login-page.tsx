import { useState, type FormEvent } from "react";
import { Link as RouterLink, Navigate, useLocation, useNavigate } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorCatalogue, type SecondFactorKind } from "@booking/contracts";
import { ApiError, errorMessage } from "../shared/api-client.ts";
import type { AuthSession } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { homeOf } from "../shared/guard.tsx";
import { FormPage, FormRefusal } from "../shared/form-page.tsx";
import { authPageFor, destinationOf } from "./destination.ts";
import { validateLogin, type LoginErrors } from "./login-form.ts";
import { PasskeySignInButton } from "./passkey-sign-in-buttons.tsx";
import { TwoFactorStep } from "./two-factor-step.tsx";
import { signInWithPassword } from "./two-factor-sign-in.ts";
import { SendAgain } from "./verification-mail.tsx";

/** Whether the guard sent the user here because their session expired. */
const expiredOf = (state: unknown): boolean => (state as { expired?: unknown } | null)?.expired === true;

export function LoginPage() {
  useDocumentTitle("Login");
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<LoginErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  /** The address the server refused as not confirmed yet: it may get another link. */
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The password was right and the account asks for a second factor: the challenge its code or passkey answers. */
  const [challenge, setChallenge] = useState<{ challenge: string; secondFactors: SecondFactorKind[] } | null>(null);
  const from = destinationOf(location);
  const expired = expiredOf(location.state);

  if (auth.status === "authenticated" && auth.user && !busy) return <Navigate to={from ?? homeOf(auth.user)} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin({ email, password });
    setErrors(found);
    setServerError(null);
    setUnconfirmed(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const step = await signInWithPassword(email.trim(), password);
      if ("session" in step) return signedIn(step.session);
      setChallenge(step);
      setBusy(false);
    } catch (error) {
      setServerError(errorMessage(error));
      if (error instanceof ApiError && error.code === "email_not_confirmed") setUnconfirmed(email.trim());
      setBusy(false);
    }
  };

  function signedIn(session: AuthSession) {
    setBusy(true);
    navigate(from ?? homeOf(session.user), { replace: true });
  }

  if (challenge)
    return (
      <FormPage title="Login" width={440}>
        <TwoFactorStep
          challenge={challenge.challenge}
          secondFactors={challenge.secondFactors}
          onSignedIn={signedIn}
          onStartAgain={(reason) => {
            setChallenge(null);
            setPassword("");
            setServerError(reason);
          }}
        />
      </FormPage>
    );

  return (
    <FormPage title="Login" width={440}>
      {/* Both roles sign in here (issue 27.4): creators come from a session they chose to book. */}
      <Typography sx={{ mb: 1 }}>For experts, and for creators booking a session.</Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        A curated network of trusted experts, made for creators.
      </Typography>
      {expired && (
        <Alert severity="warning" sx={{ mb: 2 }} role="status">
          {errorCatalogue.session_expired.message}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} aria-label="Login" sx={{ display: "grid", gap: 2 }}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={!!errors.email}
          helperText={errors.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!errors.password}
          helperText={errors.password}
          required
        />
        <Link component={RouterLink} to="/forgot-password" sx={{ justifySelf: "end" }}>
          Forgot password?
        </Link>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Login
        </Button>
      </Box>
      <FormRefusal message={serverError} />
      {/* A passkey alone signs in too (issue 33.4): no address, no password. */}
      <PasskeySignInButton onSignedIn={signedIn} />
      {unconfirmed && (
        <Box sx={{ mt: 2, display: "grid", gap: 1 }}>
          <Typography>The link to confirm it went to {unconfirmed}. No mail?</Typography>
          <SendAgain email={unconfirmed} next={from} />
        </Box>
      )}
      <Typography sx={{ mt: 3 }}>
        New here?{" "}
        <Link component={RouterLink} to={authPageFor("/signup", from)}>
          Create your account
        </Link>
      </Typography>
    </FormPage>
  );
}
