import { useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { errorCatalogue } from "@booking/contracts";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Unsubscribed } from "../shared/api-types.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { CardPage } from "../shared/layout.tsx";

export const remindersOff = (email: string) => `Reminders are off for ${email}. You can turn them back on in your account.`;

/**
 * A reminder mail's "unsubscribe" link (/unsubscribe?token=…). Nothing changes until the button is
 * pressed: mail scanners open links, and must not turn reminders off by doing so.
 */
export function UnsubscribePage() {
  useDocumentTitle("Reminder Emails");
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  const [done, setDone] = useState<Unsubscribed | null>(null);
  const [failure, setFailure] = useState<string | null>(token ? null : errorCatalogue.email_link_invalid.message);
  const [busy, setBusy] = useState(false);

  const stop = async () => {
    setBusy(true);
    setFailure(null);
    try {
      setDone(await api.post<Unsubscribed>("/mail/unsubscribe", { token }, { auth: false }));
    } catch (error) {
      setFailure(errorMessage(error));
    }
    setBusy(false);
  };

  return (
    <CardPage title="Reminder Emails" width={480}>
      {done ? (
        <Alert severity="success" role="status">
          {remindersOff(done.email)}
        </Alert>
      ) : (
        <>
          <Typography>
            We send a reminder a day and an hour before each session. Mails about your bookings themselves (requests, changes,
            cancellations) still come.
          </Typography>
          {token && (
            <Button variant="contained" onClick={() => void stop()} disabled={busy} sx={{ justifySelf: "start" }}>
              Stop reminder emails
            </Button>
          )}
        </>
      )}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Typography>
        <Link component={RouterLink} to="/login">
          Log in to your account
        </Link>
      </Typography>
    </CardPage>
  );
}
