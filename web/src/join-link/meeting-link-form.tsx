import { useState, type FormEvent } from "react";
import { errorCatalogue, isMeetingLink, JOIN_LINK_OPENS_MINUTES_BEFORE, meetingLinkHost, type JoinLinkReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, localMoment } from "../shared/local-time.ts";
import { useBookingAction } from "../reschedule/booking-action.ts";

/** What the expert is told of the booking's link as it stands. */
function linkNow(source: Booking["join_link_source"]): string {
  if (source === "expert") return "You set a meeting link for this session. Enter another to replace it.";
  if (source === "generated") return "A meeting room is made for this session. Enter your own link to meet there instead.";
  return "No meeting link yet: add one so you both know where to meet.";
}

/** The link as the API stored it, and the host it opens (punycode for an international name), so a look-alike host shows. */
function savedLink(url: string): string {
  const host = meetingLinkHost(url);
  return host ? `Saved: ${url} (opens ${host})` : `Saved: ${url}`;
}

/** The expert's video meeting link for a confirmed booking (PUT /bookings/{id}/join-link); both parties see it from 15 minutes before the start. */
export function MeetingLinkForm({ booking, zone = browserZone() }: { booking: Pick<Booking, "id" | "join_link_source">; zone?: string }) {
  const [url, setUrl] = useState("");
  const [invalid, setInvalid] = useState(false);
  const [saved, setSaved] = useState<JoinLinkReply | null>(null);
  const action = useBookingAction();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const typed = url.trim();
    setInvalid(!isMeetingLink(typed));
    if (!isMeetingLink(typed)) return;
    const done = await action.run(() => api.put<JoinLinkReply>(`/bookings/${booking.id}/join-link`, { url: typed }));
    if (done) {
      setSaved(done.value);
      setUrl("");
    }
  };

  return (
    <Box component="form" noValidate onSubmit={save} aria-label="Meeting link" sx={{ display: "grid", gap: 1.5, maxWidth: 640 }}>
      <Typography variant="h5" component="h2">
        Meeting link
      </Typography>
      <Typography color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
        {saved ? savedLink(saved.url) : linkNow(booking.join_link_source)}
      </Typography>
      {saved && (
        <Alert severity="success" role="status">
          Both of you see the link from {localMoment(saved.opens_at, zone)}, {JOIN_LINK_OPENS_MINUTES_BEFORE} minutes before the start.
        </Alert>
      )}
      <TextField
        label="Video meeting link"
        placeholder="https://meet.example.com/your-room"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={invalid}
        helperText={invalid ? errorCatalogue.join_link_invalid.message : undefined}
        slotProps={{ htmlInput: { maxLength: 2000, inputMode: "url" } }}
      />
      {action.failure && (
        <Alert severity="error" role="alert">
          {action.failure}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="outlined" disabled={action.busy}>
          Save meeting link
        </Button>
      </Box>
    </Box>
  );
}
