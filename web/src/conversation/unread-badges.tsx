import { Link as RouterLink } from "react-router-dom";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import MailOutlinedIcon from "@mui/icons-material/MailOutlined";

// The dashboards' unread messages (issue 31.3): a total beside the title, and on each booking a link to its thread
// with the count still to read. The counts come from useUnreadMessages (GET /me/unread-messages), refreshed live.

/** "Messages (2 unread)", or "Messages" when everything is read. */
export const messagesLabel = (unread: number): string => (unread > 0 ? `Messages (${unread} unread)` : "Messages");

/** "2 unread messages", "No unread messages". */
export const unreadText = (total: number): string =>
  total === 0 ? "No unread messages" : `${total} unread message${total === 1 ? "" : "s"}`;

/** The reader's unread messages over all their bookings: an envelope with the count, and the count in words. */
export function UnreadMessagesBadge({ total }: { total: number }) {
  return (
    <Box
      data-testid="unread-messages"
      data-unread={total}
      sx={{ display: "inline-flex", alignItems: "center", gap: 1.5, px: 1.5, py: 0.5, border: 1, borderColor: "divider", borderRadius: 2 }}
    >
      {/* The number is said in the words beside it: the badge is for the eye only. */}
      <Badge badgeContent={total} color="error" max={99} slotProps={{ badge: { "aria-hidden": true } }}>
        <MailOutlinedIcon aria-hidden="true" />
      </Badge>
      <Typography component="span" variant="body2" sx={{ fontWeight: total > 0 ? 700 : 400 }}>
        {unreadText(total)}
      </Typography>
    </Box>
  );
}

/** A booking's thread, with its unread count: `to` is the page it is on (Manage Booking, Session Details). */
export function BookingMessagesLink({ to, unread, describes }: { to: string; unread: number; describes: string }) {
  return (
    <Button
      size="small"
      component={RouterLink}
      to={to}
      data-testid="booking-messages"
      data-unread={unread}
      aria-label={`${messagesLabel(unread)}: ${describes}`}
      sx={unread > 0 ? { fontWeight: 700 } : undefined}
    >
      {messagesLabel(unread)}
    </Button>
  );
}
