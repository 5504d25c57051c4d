import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Me } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { TimezoneField } from "../shared/timezone-field.tsx";

/**
 * Which zone mails give times in, and whether reminders are sent (PUT /auth/me/preferences).
 * Keyed by the user where it is shown, so the fields start from the loaded profile.
 */
export function EmailPreferences({ user }: { user: Pick<Me, "timezone" | "reminder_mails"> }) {
  const { reloadUser } = useAuth();
  const [timezone, setTimezone] = useState(user.timezone);
  const [reminders, setReminders] = useState(user.reminder_mails);
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api.put<Me>("/auth/me/preferences", { timezone, reminder_mails: reminders });
      await reloadUser();
      setNotice({ kind: "success", text: "Your email preferences have been saved." });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Email preferences" sx={{ display: "grid", gap: 2, maxWidth: 480 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <TimezoneField value={timezone} onChange={setTimezone} label="Times in emails" helperText="The timezone your emails give times in." />
      <FormControlLabel
        control={<Switch checked={reminders} onChange={(e) => setReminders(e.target.checked)} />}
        label="Send me reminders before sessions"
      />
      <Typography variant="body2" color="text.secondary">
        Mails about booking changes, confirming your email and resetting your password are always sent.
      </Typography>
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Preferences
        </Button>
      </Box>
    </Box>
  );
}
