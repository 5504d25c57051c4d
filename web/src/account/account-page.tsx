import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { Page } from "../shared/layout.tsx";
import { PasswordForm } from "../expert-dashboard/account-tab.tsx";
import { NamesForm } from "./names-form.tsx";

/** A creator's account: their name and their password (experts have the dashboard's Account tab). */
export function AccountPage() {
  useDocumentTitle("Your Account");
  const { user } = useAuth();
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        Your Account
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Signed in as {user?.email}
      </Typography>
      <Stack spacing={3}>
        <Paper component="section" variant="outlined" aria-labelledby="account-name" sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography id="account-name" variant="h6" component="h2" gutterBottom>
            Your Name
          </Typography>
          {/* Keyed by user so the fields start from the loaded names. */}
          {user && <NamesForm key={user.id} user={user} />}
        </Paper>
        <Paper component="section" variant="outlined" aria-labelledby="account-password" sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography id="account-password" variant="h6" component="h2" gutterBottom>
            Change Password
          </Typography>
          <PasswordForm />
        </Paper>
      </Stack>
    </Page>
  );
}
