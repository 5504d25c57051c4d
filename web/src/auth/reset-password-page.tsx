import { useState, type FormEvent } from "react";
import { Link as RouterLink, useNavigate, useSearchParams } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorCatalogue } from "@booking/contracts";
import { ApiError, errorMessage, resetPassword } from "../shared/api-client.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { homeOf } from "../shared/guard.tsx";
import { CardPage } from "../shared/layout.tsx";
import { passwordHelp, validateNewPassword, type NewPasswordErrors } from "./login-form.ts";

export const PASSWORD_RESET = "Your password has been changed.";

/** Refusals that mean the link itself is spent: the form cannot help, a new link can. */
const deadLink = (error: unknown) =>
  error instanceof ApiError && (error.code === "otp_expired" || error.code === "email_link_invalid" || error.code === "email_link_expired");

/**
 * The reset mail's link (/reset-password?token=…): a new password typed twice; the server sets it,
 * ends the user's other sessions and signs this browser in, and the user goes on to their dashboard.
 */
export function ResetPasswordPage() {
  useDocumentTitle("Choose a New Password");
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<NewPasswordErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [linkSpent, setLinkSpent] = useState(!token);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewPassword(password, confirm);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const session = await resetPassword(token, password);
      navigate(homeOf(session.user), { replace: true, state: { notice: PASSWORD_RESET } });
    } catch (error) {
      setFailure(errorMessage(error));
      setLinkSpent(deadLink(error));
      setBusy(false);
    }
  };

  return (
    <CardPage title="Choose a New Password">
      {linkSpent ? (
        <>
          <Alert severity="error" role="alert">
            {failure ?? errorCatalogue.email_link_invalid.message}
          </Alert>
          <Button component={RouterLink} to="/forgot-password" variant="contained">
            Request a new link
          </Button>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={submit} aria-label="Choose a new password" sx={{ display: "grid", gap: 2 }}>
          <TextField
            label="New Password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={!!errors.password}
            helperText={passwordHelp(errors.password)}
            required
          />
          <TextField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={!!errors.confirm}
            helperText={errors.confirm}
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Set New Password
          </Button>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
        </Box>
      )}
      <Typography>
        <Link component={RouterLink} to="/login">
          Back to Login
        </Link>
      </Typography>
    </CardPage>
  );
}
