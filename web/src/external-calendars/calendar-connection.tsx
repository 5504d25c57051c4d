import { useId, useState } from "react";
import type { UpdateCalendarConnectionBody } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../shared/api-client.ts";
import type { CalendarConnection } from "../shared/api-types.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { busyCountText, calendarCalls, inputTestId, KIND_LABEL, lastSyncedText, useCalendarsChanged } from "./calendar-queries.ts";

const NONE = "none";

/**
 * One connected account: where it reads from (a host, never the secret address), when it was last read and why
 * that failed, each of its calendars with whether its busy times block bookings, for CalDAV the calendar that
 * receives confirmed bookings, and Sync now and Disconnect (asked first).
 */
export function CalendarConnectionItem({
  expertId,
  zone,
  connection: c,
  onDisconnected,
}: {
  expertId: string;
  zone: string;
  connection: CalendarConnection;
  onDisconnected: (c: CalendarConnection) => void;
}) {
  const changed = useCalendarsChanged(expertId);
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = useId();
  const targetLabelId = useId();

  const run = async (work: () => Promise<CalendarConnection>, done: (reply: CalendarConnection) => string | null) => {
    setBusy(true);
    try {
      const reply = await work();
      const text = done(reply);
      setNotice(text ? { kind: "success", text } : null);
      changed({ reply });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const update = (body: UpdateCalendarConnectionBody, done: string) =>
    void run(
      () => calendarCalls.update(expertId, c.id, body),
      () => done,
    );

  const setBlocks = (calendarId: string, blocks: boolean) =>
    update(
      { blocking_calendar_ids: c.calendars.filter((k) => (k.id === calendarId ? blocks : k.blocks)).map((k) => k.id) },
      "Saved: which calendars block bookings.",
    );

  const disconnect = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await calendarCalls.disconnect(expertId, c.id);
      setConfirming(false);
      changed({ removed: c.id });
      onDisconnected(c);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const receiving = c.calendars.find((k) => k.receives_bookings)?.id ?? NONE;

  return (
    <Box
      component="li"
      data-testid="calendar-connection"
      data-connection-id={c.id}
      aria-labelledby={titleId}
      sx={{ display: "grid", gap: 1.5, border: 1, borderColor: "divider", borderRadius: 2, px: 2, py: 1.5 }}
    >
      <Box>
        <Typography id={titleId} data-testid="calendar-connection-title" sx={{ fontWeight: 700, overflowWrap: "anywhere" }}>
          <Typography component="span" color="text.secondary">{`${KIND_LABEL[c.kind]} · `}</Typography>
          {c.label}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="calendar-last-synced">
          {lastSyncedText(c.last_synced_at, zone)}
        </Typography>
      </Box>
      {c.last_error && (
        // Not an alert: it stays until a read succeeds.
        <Alert severity="warning" role="note" data-testid="calendar-last-error">
          {c.last_error}
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <Box component="ul" aria-label={`Calendars of ${c.label}`} sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 0.5 }}>
        {c.calendars.map((k) => (
          <Box component="li" key={k.id} sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography id={`${titleId}-${k.id}`} sx={{ overflowWrap: "anywhere" }}>
                {k.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {busyCountText(k.busy_count)}
              </Typography>
            </Box>
            <FormControlLabel
              label="Blocks bookings"
              disabled={busy}
              control={
                <Checkbox
                  checked={k.blocks}
                  onChange={(e) => setBlocks(k.id, e.target.checked)}
                  slotProps={{ input: { ...inputTestId(`calendar-blocks-${k.id}`), "aria-describedby": `${titleId}-${k.id}` } }}
                />
              }
            />
          </Box>
        ))}
      </Box>
      <FormControlLabel
        label="All-day events block bookings"
        disabled={busy}
        control={
          <Checkbox
            checked={c.all_day_blocks}
            onChange={(e) => update({ all_day_blocks: e.target.checked }, "Saved: whether all-day events block bookings.")}
            slotProps={{ input: inputTestId("calendar-all-day") }}
          />
        }
      />
      {c.kind === "caldav" && (
        <FormControl component="fieldset" disabled={busy} sx={{ m: 0 }}>
          <FormLabel component="legend" id={targetLabelId}>
            Add confirmed bookings to
          </FormLabel>
          <RadioGroup
            aria-labelledby={targetLabelId}
            name={`bookings-target-${c.id}`}
            data-testid="calendar-bookings-target"
            value={receiving}
            onChange={(e) =>
              update(
                { bookings_calendar_id: e.target.value === NONE ? null : e.target.value },
                e.target.value === NONE
                  ? "Confirmed bookings are no longer added to a calendar."
                  : "Confirmed bookings will be added there.",
              )
            }
          >
            {c.calendars.map((k) => (
              <FormControlLabel key={k.id} value={k.id} control={<Radio />} label={k.name} />
            ))}
            <FormControlLabel value={NONE} control={<Radio />} label="None" />
          </RadioGroup>
        </FormControl>
      )}
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <Button
          size="small"
          variant="outlined"
          disabled={busy}
          data-testid="calendar-sync"
          aria-label={`Sync now ${c.label}`}
          onClick={() =>
            void run(
              () => calendarCalls.sync(expertId, c.id),
              (reply) => (reply.last_error ? null : "Calendar synced."),
            )
          }
        >
          Sync now
        </Button>
        <Button
          size="small"
          color="error"
          disabled={busy}
          data-testid="calendar-disconnect"
          aria-label={`Disconnect ${c.label}`}
          onClick={() => {
            setFailure(null);
            setConfirming(true);
          }}
        >
          Disconnect
        </Button>
      </Box>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby={`${titleId}-disconnect`}>
        <DialogTitle id={`${titleId}-disconnect`}>Disconnect this calendar?</DialogTitle>
        <DialogContent>
          <DialogContentText>Its busy times stop blocking bookings and its address and password are deleted.</DialogContentText>
          {failure && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Keep it connected</Button>
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            onClick={() => void disconnect()}
            data-testid="calendar-disconnect-confirm"
          >
            Disconnect
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
