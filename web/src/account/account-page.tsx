import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { Page } from "../shared/layout.tsx";
import { AccountTab } from "../expert-dashboard/account-tab.tsx";
import { AccountSection } from "./account-section.tsx";
import { NamesForm } from "./names-form.tsx";

/**
 * A creator's account: their name, their password, two-factor sign-in, where they are signed in and their email
 * preferences (experts have the dashboard's Account tab).
 */
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
        <AccountSection id="account-name" title="Your Name">
          {/* Keyed by user so the fields start from the loaded names. */}
          {user && <NamesForm key={user.id} user={user} />}
        </AccountSection>
        <AccountTab />
      </Stack>
    </Page>
  );
}
