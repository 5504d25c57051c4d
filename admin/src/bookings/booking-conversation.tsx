import { Alert, Box, CircularProgress, Paper, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useDataProvider, useRecordContext } from "react-admin";
import type { ConversationReply } from "@booking/contracts";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import type { Booking } from "./booking-record.ts";

// A booking's conversation on its console page (issue 31.3), read-only: every message its creator and expert sent,
// oldest first, who sent it and when, and until when the thread takes messages. An admin reads it (to help, to decide
// a no-show or a dispute) and never writes in it: the API refuses an admin's message.

const roleLabels: Record<ConversationReply["messages"][number]["role"], string> = { creator: "Creator", expert: "Expert" };

/** "Open until …" or "Closed on …": the thread takes messages until 7 days after the session. */
export function conversationWindow(openUntil: string, now = Date.now()): string {
  return `${now > Date.parse(openUntil) ? "Closed on" : "Open until"} ${consoleMoment(openUntil)}`;
}

function Thread({ conversation }: { conversation: ConversationReply }) {
  if (conversation.messages.length === 0) return <Typography variant="body2">No messages yet.</Typography>;
  return (
    <Box
      component="ol"
      aria-label="Messages"
      data-testid="booking-conversation"
      sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1 }}
    >
      {conversation.messages.map((m) => (
        <Paper component="li" variant="outlined" key={m.id} data-message-id={m.id} data-role={m.role} sx={{ p: 1.5 }}>
          <Typography variant="body2" color="text.secondary">
            <strong>{roleLabels[m.role]}</strong> · <time dateTime={m.sent_at}>{consoleMoment(m.sent_at)}</time>
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", mt: 0.5 }}>
            {m.text}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}

/** The booking's messages between its creator and expert. */
export function BookingConversation() {
  const booking = useRecordContext<Booking>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const id = String(booking?.id ?? "");
  const { data, error, isPending } = useQuery({
    queryKey: ["bookings", id, "conversation"],
    queryFn: () => dataProvider.bookingConversation(id),
    enabled: id !== "",
    retry: false,
  });
  return (
    <Box component="section" aria-labelledby="booking-conversation-title" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" id="booking-conversation-title" sx={{ mb: 1 }}>
        Conversation
      </Typography>
      {error ? (
        <Alert severity="error">The conversation could not be read: {error.message}</Alert>
      ) : isPending ? (
        <CircularProgress size={20} aria-label="Reading the conversation" />
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="conversation-window">
            {conversationWindow(data.open_until)} · read-only: only the creator and the expert write here.
          </Typography>
          <Thread conversation={data} />
        </>
      )}
    </Box>
  );
}
