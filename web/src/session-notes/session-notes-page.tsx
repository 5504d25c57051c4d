import { useState } from "react";
import { Link as RouterLink, useParams } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { longDate, localMoment } from "../shared/local-time.ts";
import { useCopyLink } from "../shared/timed-notices.ts";
import { bookingQuery } from "../manage-booking/manage-booking-page.tsx";
import { BookingReview } from "./booking-review.tsx";
import { backToBookings, ChooseBooking } from "./choose-booking.tsx";
import { downloadText, notesDocument, notesFileName } from "./notes-file.ts";
import { notesQuery } from "./notes-queries.ts";

export function SessionNotesPage() {
  const { bookingId } = useParams();
  useDocumentTitle("Session Notes");
  return <Page>{bookingId ? <SessionNotes bookingId={bookingId} /> : <ChooseBooking title="Session Notes" />}</Page>;
}

function SessionNotes({ bookingId }: { bookingId: string }) {
  const auth = useAuth();
  const booking = useQuery(bookingQuery(bookingId));
  const notes = useQuery(notesQuery(bookingId));
  const { copied, copy } = useCopyLink();
  const [done, setDone] = useState<Record<number, boolean>>({});
  if (booking.isPending || notes.isPending) return <LoadingScreen />;
  if (booking.isError) return <Alert severity="error">{errorMessage(booking.error)}</Alert>;
  if (notes.isError) return <Alert severity="error">{errorMessage(notes.error)}</Alert>;
  const b = booking.data;
  const n = notes.data;
  const isExpert = auth.user?.id === b.expert_id || auth.user?.role === "admin";
  return (
    <Box sx={{ maxWidth: 820 }}>
      <Link component={RouterLink} to={backToBookings(auth.user)}>
        Back
      </Link>
      <Typography variant="h4" component="h1" sx={{ mt: 2 }}>
        Session Notes
      </Typography>
      <Typography variant="h6" component="p">
        {b.session_title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Client: {b.creator_name ?? "Creator"} · Expert: {b.expert_name ?? "Expert"} · {longDate(b.scheduled_time)} (
        {localMoment(b.scheduled_time)}) · {b.length_minutes} minute session
      </Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mb: 3 }}>
        {isExpert && (
          <Button variant="outlined" component={RouterLink} to={`/add-session-notes/${b.id}`}>
            {n ? "Edit Notes" : "Add Notes"}
          </Button>
        )}
        <Button variant="contained" disabled={!n} onClick={() => n && downloadText(notesFileName(b), notesDocument(b, n))}>
          Download Notes
        </Button>
        <Button variant="outlined" onClick={() => copy(window.location.href)}>
          {copied ? "Copied" : "Share Notes"}
        </Button>
      </Box>
      {!n ? (
        <Typography>No notes have been written for this session yet.</Typography>
      ) : (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: "grid", gap: 2 }}>
          <section aria-labelledby="notes-summary">
            <Typography id="notes-summary" variant="h6" component="h2">
              Summary
            </Typography>
            <Typography data-testid="notes-summary-text" sx={{ whiteSpace: "pre-line" }}>
              {n.summary}
            </Typography>
          </section>
          <section aria-labelledby="notes-recap">
            <Typography id="notes-recap" variant="h6" component="h2">
              Session Recap
            </Typography>
            <Typography sx={{ whiteSpace: "pre-line" }}>{n.recap || "No recap."}</Typography>
          </section>
          <section aria-labelledby="notes-takeaways">
            <Typography id="notes-takeaways" variant="h6" component="h2">
              Key Takeaways
            </Typography>
            {n.takeaways.length ? (
              <Box component="ul" sx={{ my: 0 }}>
                {n.takeaways.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </Box>
            ) : (
              <Typography>None.</Typography>
            )}
          </section>
          <section aria-labelledby="notes-actions">
            <Typography id="notes-actions" variant="h6" component="h2">
              Suggested Actions
            </Typography>
            {n.suggested_actions.length ? (
              <Box sx={{ display: "grid" }}>
                {n.suggested_actions.map((a, i) => (
                  <FormControlLabel
                    key={a}
                    control={<Checkbox checked={!!done[i]} onChange={(e) => setDone((d) => ({ ...d, [i]: e.target.checked }))} />}
                    label={a}
                  />
                ))}
              </Box>
            ) : (
              <Typography>None.</Typography>
            )}
          </section>
        </Paper>
      )}
      <BookingReview booking={b} />
    </Box>
  );
}
