import { Link as RouterLink } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { errorCatalogue } from "@booking/contracts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { HELP_URL } from "../shared/flags.ts";
import { Page } from "../shared/layout.tsx";

/**
 * Reset by e-mail is not built yet (it comes with the mail service), so this page says so plainly
 * rather than offering a form that sends nothing.
 */
export function ForgotPasswordPage() {
  useDocumentTitle("Forgot Password");
  return (
    <Page slim>
      <Paper component="section" variant="outlined" sx={{ maxWidth: 440, mx: "auto", p: { xs: 3, sm: 4 }, display: "grid", gap: 2 }}>
        <Typography variant="h4" component="h1">
          Forgot Password
        </Typography>
        <Alert severity="info">{errorCatalogue.otp_disabled.message}</Alert>
        <Typography>
          Remember it after all? Log in below. Otherwise{" "}
          <Link href={HELP_URL} target="_blank" rel="noopener noreferrer">
            contact support
          </Link>{" "}
          and we will help you back into your account.
        </Typography>
        <Button component={RouterLink} to="/login" variant="contained">
          Back to Login
        </Button>
      </Paper>
    </Page>
  );
}
