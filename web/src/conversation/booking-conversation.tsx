import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { CONVERSATION_DAYS_AFTER, errorCatalogue, MESSAGE_MAX } from "@booking/contracts";
import { errorMessage } from "../shared/api-client.ts";
import type { Booking, Conversation, Message } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { browserZone, localMoment } from "../shared/local-time.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";
import {
  conversationCalls,
  conversationClosed,
  conversationPartyOf,
  conversationQuery,
  unreadMessagesQuery,
} from "./conversation-queries.ts";
import { useMarkReadWhileShown } from "./mark-read.ts";

// A booking's conversation (issue 31.3) on the expert's Manage Booking and the creator's Session Details: the thread,
// oldest first, each message with who sent it and when (in the viewer's zone); a box to write in until the conversation
// closes, 7 days after the session; the switch that mutes its new-message mails. The thread counts as read while shown.

/** Who sent a message, as the viewer reads it: "You", or the other party's name and role. */
export function senderOf(message: Message, booking: Booking, myUserId: string | undefined): string {
  if (message.by === myUserId) return "You";
  return message.role === "creator"
    ? `${booking.creator_name ?? "The creator"} · Creator`
    : `${booking.expert_name ?? "The expert"} · Expert`;
}

function MessageItem({ message, booking, mine, zone }: { message: Message; booking: Booking; mine: string | undefined; zone: string }) {
  const own = message.by === mine;
  return (
    <Paper
      component="li"
      variant="outlined"
      data-testid="conversation-message"
      data-message-id={message.id}
      data-role={message.role}
      sx={{ p: 1.5, maxWidth: "85%", justifySelf: own ? "end" : "start", bgcolor: own ? "action.hover" : "background.paper" }}
    >
      <Typography variant="body2" color="text.secondary" data-testid="conversation-message-meta">
        <strong>{senderOf(message, booking, mine)}</strong> · <time dateTime={message.sent_at}>{localMoment(message.sent_at, zone)}</time>
      </Typography>
      <Typography data-testid="conversation-message-text" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", mt: 0.5 }}>
        {message.text}
      </Typography>
    </Paper>
  );
}

function Thread({ conversation, booking, zone }: { conversation: Conversation; booking: Booking; zone: string }) {
  const { user } = useAuth();
  const log = useRef<HTMLDivElement>(null);
  const count = conversation.messages.length;
  // The newest message in view when one arrives.
  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [count]);
  return (
    <Box
      ref={log}
      role="log"
      aria-label="Messages"
      data-testid="conversation-thread"
      // Scrolls when long: reachable by keyboard.
      tabIndex={0}
      sx={{ maxHeight: 420, overflowY: "auto", py: 1 }}
    >
      {count === 0 ? (
        <Typography color="text.secondary">No messages yet.</Typography>
      ) : (
        <Box component="ol" sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1.5 }}>
          {conversation.messages.map((m) => (
            <MessageItem key={m.id} message={m} booking={booking} mine={user?.id} zone={zone} />
          ))}
        </Box>
      )}
    </Box>
  );
}

const EMPTY_MESSAGE = errorCatalogue.message_text_invalid.message;

function Composer({ bookingId, onReply }: { bookingId: string; onReply: (reply: Conversation) => void }) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setFailure(EMPTY_MESSAGE);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      onReply(await conversationCalls.send(bookingId, text));
      setText("");
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const locale = viewerLocale();
  return (
    <Box component="form" onSubmit={(e) => void send(e)} noValidate sx={{ display: "grid", gap: 1.5, mt: 2 }}>
      <TextField
        label="Your message"
        multiline
        minRows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        helperText={`${text.length.toLocaleString(locale)} / ${MESSAGE_MAX.toLocaleString(locale)} characters`}
        slotProps={{ htmlInput: { maxLength: MESSAGE_MAX, "data-testid": "conversation-input" } }}
        fullWidth
      />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Send
        </Button>
      </Box>
    </Box>
  );
}

function MuteSwitch({ conversation, onReply }: { conversation: Conversation; onReply: (reply: Conversation) => void }) {
  // The switch turns at once; the answer confirms it, a refusal turns it back.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const muted = wanted ?? conversation.muted;
  const mute = async (next: boolean) => {
    setWanted(next);
    setFailure(null);
    try {
      onReply(await conversationCalls.mute(conversation.booking_id, next));
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setWanted(null);
    }
  };
  return (
    <Box sx={{ mt: 2 }}>
      <FormControlLabel
        control={<Switch checked={muted} disabled={wanted !== null} onChange={(e) => void mute(e.target.checked)} />}
        label="Mute mail for this conversation"
      />
      <Typography variant="body2" color="text.secondary">
        {muted
          ? "No mail about new messages here; they still show on this page and your dashboard."
          : "We mail you about new messages, at most once every 15 minutes."}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      )}
    </Box>
  );
}

/** The conversation of `booking`, for its creator and expert (an admin reads it without writing). */
export function BookingConversation({ booking, zone = browserZone() }: { booking: Booking; zone?: string }) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const headingId = useId();
  const party = conversationPartyOf(auth, booking);
  const thread = useQuery(conversationQuery(booking.id));
  useMarkReadWhileShown(booking.id, party ? thread.data : undefined);
  const took = (reply: Conversation) => {
    queryClient.setQueryData(conversationQuery(booking.id).queryKey, reply);
    void queryClient.invalidateQueries({ queryKey: unreadMessagesQuery().queryKey });
  };
  const other = party === "expert" ? (booking.creator_name ?? "the creator") : (booking.expert_name ?? "your expert");
  return (
    <Box component="section" aria-labelledby={headingId} id="messages" data-testid="booking-conversation" sx={{ mt: 4 }}>
      <Typography variant="h5" component="h2" id={headingId} gutterBottom>
        Messages
      </Typography>
      {party && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Your conversation with {other} about this booking.
        </Typography>
      )}
      {thread.isPending ? (
        <CircularProgress size={24} aria-label="Loading messages" />
      ) : thread.isError ? (
        <Alert severity="error">The messages could not be loaded: {errorMessage(thread.error)}</Alert>
      ) : (
        <>
          <Thread conversation={thread.data} booking={booking} zone={zone} />
          {conversationClosed(thread.data) ? (
            <Alert severity="info" sx={{ mt: 2 }} data-testid="conversation-closed">
              This conversation closed on {localMoment(thread.data.open_until, zone)}, {CONVERSATION_DAYS_AFTER} days after the session: no
              more messages can be sent.
            </Alert>
          ) : party ? (
            <>
              <Composer bookingId={booking.id} onReply={took} />
              <MuteSwitch conversation={thread.data} onReply={took} />
            </>
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
              Only the creator and the expert of this booking write here.
            </Typography>
          )}
        </>
      )}
    </Box>
  );
}
