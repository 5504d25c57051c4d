import { useState, type FormEvent } from "react";
import { Link as RouterLink, useNavigate, useParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking, SessionNotes } from "../shared/api-types.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { localMoment } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { bookingQuery } from "../manage-booking/manage-booking-page.tsx";
import { ChooseBooking } from "./choose-booking.tsx";
import { linesOf, NOTES_SUMMARY_REQUIRED } from "./notes-file.ts";
import { notesQuery } from "./notes-queries.ts";

export function AddSessionNotesPage() {
  const { bookingId } = useParams();
  useDocumentTitle("Add Session Notes");
  return <Page>{bookingId ? <NotesLoader bookingId={bookingId} /> : <ChooseBooking title="Add Session Notes" />}</Page>;
}

function NotesLoader({ bookingId }: { bookingId: string }) {
  const booking = useQuery(bookingQuery(bookingId));
  const notes = useQuery(notesQuery(bookingId));
  if (booking.isPending || notes.isPending) return <LoadingScreen />;
  if (booking.isError) return <Alert severity="error">{errorMessage(booking.error)}</Alert>;
  return <NotesForm booking={booking.data} notes={notes.data ?? null} />;
}

export function NotesForm({ booking, notes }: { booking: Booking; notes: SessionNotes | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [summary, setSummary] = useState(notes?.summary ?? "");
  const [recap, setRecap] = useState(notes?.recap ?? "");
  const [takeaways, setTakeaways] = useState((notes?.takeaways ?? []).join("\n"));
  const [actions, setActions] = useState((notes?.suggested_actions ?? []).join("\n"));
  const [summaryError, setSummaryError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!summary.trim()) {
      setSummaryError(NOTES_SUMMARY_REQUIRED);
      return;
    }
    setSummaryError(null);
    setFailure(null);
    setBusy(true);
    try {
      const saved = await api.post<SessionNotes>(`/bookings/${booking.id}/notes`, {
        summary: summary.trim(),
        recap: recap.trim(),
        takeaways: linesOf(takeaways),
        suggested_actions: linesOf(actions),
      });
      queryClient.setQueryData([...BOOKINGS_KEY, "notes", booking.id], saved);
      void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      navigate(`/session-notes/${booking.id}`);
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Session notes" sx={{ display: "grid", gap: 2, maxWidth: 760 }}>
      <Link component={RouterLink} to={`/expert-dashboard/${booking.expert_id}/bookings`}>
        Back
      </Link>
      <Typography variant="h4" component="h1">
        {notes ? "Edit Session Notes" : "Add Session Notes"}
      </Typography>
      <Typography color="text.secondary">
        {booking.session_title} with {booking.creator_name ?? "your client"} · {localMoment(booking.scheduled_time)}
      </Typography>
      <TextField
        label="Session Summary"
        value={summary}
        onChange={(e) => setSummary(e.target.value)}
        multiline
        minRows={3}
        required
        error={!!summaryError}
        helperText={summaryError ?? undefined}
      />
      <TextField label="Session Recap" value={recap} onChange={(e) => setRecap(e.target.value)} multiline minRows={4} />
      <TextField
        label="Key Takeaways"
        value={takeaways}
        onChange={(e) => setTakeaways(e.target.value)}
        multiline
        minRows={3}
        helperText="One per line."
      />
      <TextField
        label="Suggested Actions"
        value={actions}
        onChange={(e) => setActions(e.target.value)}
        multiline
        minRows={3}
        helperText="One per line."
      />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Notes
        </Button>
      </Box>
    </Box>
  );
}
