import { useEffect, useId } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { JOIN_LINK_OPENS_MINUTES_BEFORE, meetingLinkHost } from "@booking/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import VideocamIcon from "@mui/icons-material/Videocam";
import type { Booking } from "../shared/api-types.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";

/** setTimeout's longest wait (about 24.8 days); a link opening later is picked up by a later visit. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export const LINK_NOT_YET = `The link appears ${JOIN_LINK_OPENS_MINUTES_BEFORE} minutes before the start`;

/**
 * "Join the session" once the API shows the meeting link (from 15 minutes before the start); until
 * then when it will appear, and the booking is read again at that moment. Nothing for a booking
 * that will have no link (not confirmed, or none set and no rooms configured).
 */
export function JoinSession({ booking }: { booking: Pick<Booking, "id" | "join_link" | "join_link_opens_at" | "session_title"> }) {
  const queryClient = useQueryClient();
  const hostId = useId();
  const opensAt = booking.join_link || !booking.join_link_opens_at ? null : Date.parse(booking.join_link_opens_at);
  useEffect(() => {
    if (opensAt === null) return;
    const wait = opensAt - Date.now();
    if (wait > LONGEST_TIMER_MS) return;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY }), Math.max(0, wait) + 1000);
    return () => clearTimeout(timer);
  }, [opensAt, queryClient]);

  if (booking.join_link) {
    // The host beside the button, in the ASCII form browsers go to: a look-alike (zоom.us with a Cyrillic о) shows as xn--….
    const host = meetingLinkHost(booking.join_link);
    return (
      <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", columnGap: 1 }}>
        <Button
          variant="contained"
          color="success"
          size="small"
          startIcon={<VideocamIcon />}
          href={booking.join_link}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Join the session: ${booking.session_title}`}
          aria-describedby={host ? hostId : undefined}
        >
          Join the session
        </Button>
        {host && (
          <Typography id={hostId} variant="body2" color="text.secondary" data-testid="join-link-host" sx={{ overflowWrap: "anywhere" }}>
            on {host}
          </Typography>
        )}
      </Box>
    );
  }
  if (!booking.join_link_opens_at) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="join-link-later">
      {LINK_NOT_YET}.
    </Typography>
  );
}
