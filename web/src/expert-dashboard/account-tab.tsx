import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { AccountSection } from "../account/account-section.tsx";
import { CalendarFeed, calendarFeedQuery } from "../account/calendar-feed.tsx";
import { DeleteAccount } from "../account/delete-account.tsx";
import { EmailPreferences } from "../account/email-preferences.tsx";
import { PasskeysSection } from "../account/passkeys-section.tsx";
import { SignInsSection } from "../account/sign-ins-section.tsx";
import { TwoFactorSection } from "../account/two-factor-section.tsx";
import { YourData } from "../account/your-data.tsx";
import { ApiError, api, errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { passwordHelp, validateNewPassword } from "../auth/login-form.ts";

export type PasswordErrors = { current?: string; password?: string; confirm?: string };

export function validatePasswordChange(current: string, password: string, confirm: string): PasswordErrors {
  const errors: PasswordErrors = validateNewPassword(password, confirm);
  if (!current) errors.current = "Please enter your current password.";
  return errors;
}

/**
 * Change the password: the current one proves it is the owner asking (the server checks it). The
 * change also ends the calendar feed's address, so the feed section loads the new one.
 */
export function PasswordForm() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validatePasswordChange(current, password, confirm);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api.post("/auth/password", { current_password: current, password });
      setCurrent("");
      setPassword("");
      setConfirm("");
      setNotice({
        kind: "success",
        text: "Your password has been changed. Your calendar feed has a new address: subscribe again with it under Calendar Feed.",
      });
      void queryClient.invalidateQueries({ queryKey: calendarFeedQuery().queryKey });
    } catch (error) {
      if (error instanceof ApiError && error.code === "reauthentication_needed")
        setErrors({ current: "This is not your current password." });
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Change password" sx={{ display: "grid", gap: 2, maxWidth: 420 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <Typography color="text.secondary">
        Changing your password also ends your calendar feed&apos;s address: copy the new one under Calendar Feed.
      </Typography>
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={!!errors.current}
        helperText={errors.current}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={!!errors.password}
        helperText={passwordHelp(errors.password)}
      />
      <TextField
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={!!errors.confirm}
        helperText={errors.confirm}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Password
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The expert dashboard's Account tab: the password, two-factor sign-in, passkeys and where one is signed in (issue 33), the email
 * preferences, the calendar feed, your data and deleting the account (the creator's account page shows them under the name).
 */
export function AccountTab() {
  const { user } = useAuth();
  return (
    <Stack spacing={3}>
      <AccountSection id="account-password" title="Change Password">
        <PasswordForm />
      </AccountSection>
      <AccountSection id="account-two-factor" title="Two-factor sign-in">
        <TwoFactorSection />
      </AccountSection>
      <AccountSection id="account-passkeys" title="Passkeys">
        <PasskeysSection />
      </AccountSection>
      <AccountSection id="account-sign-ins" title="Where you're signed in">
        <SignInsSection />
      </AccountSection>
      <AccountSection id="account-email" title="Email Preferences">
        {user && <EmailPreferences key={user.id} user={user} />}
      </AccountSection>
      <AccountSection id="account-calendar" title="Calendar Feed">
        <CalendarFeed />
      </AccountSection>
      <AccountSection id="account-data" title="Your data">
        <YourData />
      </AccountSection>
      <AccountSection id="account-delete" title="Delete your account">
        <DeleteAccount />
      </AccountSection>
    </Stack>
  );
}
