import { useState, type FormEvent } from "react";
import { Link as RouterLink } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { CardPage } from "../shared/layout.tsx";
import { validateEmail } from "./login-form.ts";

/** What the page says after sending, whether or not the address has an account (the server answers alike). */
export const resetLinkSent = (email: string) => `If an account exists for ${email}, we sent a link to reset the password.`;

/** Ask for a password-reset link (POST /auth/recover); the mail's link leads to /reset-password. */
export function ForgotPasswordPage() {
  useDocumentTitle("Forgot Password");
  const [email, setEmail] = useState("");
  const [invalid, setInvalid] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateEmail(email);
    setInvalid(problem);
    setFailure(null);
    if (problem) return;
    setBusy(true);
    try {
      await api.post("/auth/recover", { email: email.trim() }, { auth: false });
      setSentTo(email.trim());
    } catch (error) {
      setFailure(errorMessage(error));
    }
    setBusy(false);
  };

  return (
    <CardPage title="Forgot Password">
      {sentTo ? (
        <Alert severity="success" role="status">
          {resetLinkSent(sentTo)}
        </Alert>
      ) : (
        <>
          <Typography>Enter the email you signed up with and we will send you a link to choose a new password.</Typography>
          <Box component="form" noValidate onSubmit={submit} aria-label="Reset your password" sx={{ display: "grid", gap: 2 }}>
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={!!invalid}
              helperText={invalid}
              required
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              Send Reset Link
            </Button>
          </Box>
        </>
      )}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Typography>
        Remember it after all?{" "}
        <Link component={RouterLink} to="/login">
          Back to Login
        </Link>
      </Typography>
    </CardPage>
  );
}
