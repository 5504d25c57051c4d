import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../shared/api-client.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import {
  calendarCalls,
  connectBody,
  connectErrors,
  emptyConnectForm,
  inputTestId,
  useCalendarsChanged,
  type ConnectForm,
  type ConnectFormErrors,
} from "./calendar-queries.ts";

const ICS_HELP =
  "Google Calendar: Settings → your calendar → Integrate calendar → Secret address in iCal format. Outlook: Publish a calendar → ICS link.";

/**
 * Connect a calendar: a secret iCal address, or a CalDAV server with a user name and an app password. The server
 * reads the calendar before it answers (a few seconds), so the button waits and says so. A refusal keeps what was
 * typed; a success clears the form, the password above all.
 */
export function ConnectCalendarForm({ expertId }: { expertId: string }) {
  const changed = useCalendarsChanged(expertId);
  const [form, setForm] = useState<ConnectForm>(() => emptyConnectForm());
  const [errors, setErrors] = useState<ConnectFormErrors>({});
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<ConnectForm>) => setForm((f) => ({ ...f, ...change }));

  const connect = async (e: FormEvent) => {
    e.preventDefault();
    const found = connectErrors(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setNotice(null);
    try {
      const reply = await calendarCalls.connect(expertId, connectBody(form));
      setForm(emptyConnectForm(form.kind));
      setNotice({ kind: "success", text: "Calendar connected." });
      changed({ reply });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const field = (key: keyof ConnectFormErrors, label: string, testId: string, extra: { type?: string; autoComplete?: string } = {}) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => set({ [key]: e.target.value })}
      error={!!errors[key]}
      helperText={errors[key]}
      type={extra.type}
      autoComplete={extra.autoComplete ?? "off"}
      slotProps={{ htmlInput: { "data-testid": testId, spellCheck: false } }}
    />
  );

  return (
    <Box
      component="form"
      noValidate
      onSubmit={connect}
      aria-label="Connect a calendar"
      aria-busy={busy}
      sx={{ display: "grid", gap: 2, border: 1, borderColor: "divider", borderRadius: 2, p: 2 }}
    >
      <RadioGroup
        row
        aria-label="Connect with"
        value={form.kind}
        onChange={(e) => {
          setErrors({});
          set({ kind: e.target.value as ConnectForm["kind"] });
        }}
      >
        <FormControlLabel
          value="ics"
          control={<Radio slotProps={{ input: inputTestId("calendar-connect-kind-ics") }} />}
          label="iCal address"
        />
        <FormControlLabel
          value="caldav"
          control={<Radio slotProps={{ input: inputTestId("calendar-connect-kind-caldav") }} />}
          label="CalDAV"
        />
      </RadioGroup>
      {form.kind === "ics" ? (
        <TextField
          label="Secret address in iCal format"
          placeholder="https://"
          value={form.url}
          onChange={(e) => set({ url: e.target.value })}
          error={!!errors.url}
          helperText={errors.url ?? ICS_HELP}
          autoComplete="off"
          slotProps={{ htmlInput: { "data-testid": "calendar-ics-url", inputMode: "url", spellCheck: false } }}
        />
      ) : (
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, alignItems: "start" }}>
          <Box sx={{ gridColumn: { sm: "1 / -1" }, display: "grid" }}>{field("serverUrl", "Server address", "calendar-caldav-server")}</Box>
          {field("username", "User name", "calendar-caldav-username", { autoComplete: "username" })}
          {field("password", "App password", "calendar-caldav-password", { type: "password", autoComplete: "new-password" })}
        </Box>
      )}
      <FormControlLabel
        control={<Checkbox checked={form.allDayBlocks} onChange={(e) => set({ allDayBlocks: e.target.checked })} />}
        label="All-day events block bookings"
      />
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          data-testid="calendar-connect"
          startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
        >
          Connect
        </Button>
        {busy && (
          <Typography color="text.secondary" variant="body2">
            Reading your calendar… this can take a few seconds.
          </Typography>
        )}
      </Box>
    </Box>
  );
}
