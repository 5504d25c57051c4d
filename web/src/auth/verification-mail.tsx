import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import { api, errorMessage } from "../shared/api-client.ts";
import { validateEmail } from "./login-form.ts";

// Asking for another verification mail (POST /auth/verify/resend). The server answers the same for
// every address, so what is shown never says whether an account exists; only its rate limit (429)
// is an error worth showing.

type Sending = { state: "idle" | "sending" } | { state: "sent"; email: string } | { state: "failed"; message: string };

/** `next`: where the new link goes on to, once the address is confirmed (issue 27.4). */
function useSendVerification(next: string | null) {
  const [sending, setSending] = useState<Sending>({ state: "idle" });
  const send = async (email: string) => {
    setSending({ state: "sending" });
    try {
      await api.post("/auth/verify/resend", { email, ...(next && { next }) }, { auth: false });
      setSending({ state: "sent", email });
    } catch (error) {
      setSending({ state: "failed", message: errorMessage(error) });
    }
  };
  return { sending, send };
}

function Outcome({ sending, sent }: { sending: Sending; sent: (email: string) => string }) {
  if (sending.state === "sent")
    return (
      <Alert severity="success" role="status">
        {sent(sending.email)}
      </Alert>
    );
  if (sending.state === "failed")
    return (
      <Alert severity="error" role="alert">
        {sending.message}
      </Alert>
    );
  return null;
}

/** "Send again" for an address known to be waiting for confirmation (just signed up, or refused at login). */
export function SendAgain({ email, next = null }: { email: string; next?: string | null }) {
  const { sending, send } = useSendVerification(next);
  return (
    <Box sx={{ display: "grid", gap: 1.5, justifyItems: "start" }}>
      <Button variant="outlined" onClick={() => void send(email)} disabled={sending.state === "sending"}>
        Send again
      </Button>
      <Outcome sending={sending} sent={(to) => `We sent a new link to ${to}.`} />
    </Box>
  );
}

/** An address to send a new verification link to (after a link that no longer works). */
export function NewVerificationLinkForm({ next = null }: { next?: string | null }) {
  const [email, setEmail] = useState("");
  const [invalid, setInvalid] = useState<string | undefined>();
  const { sending, send } = useSendVerification(next);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validateEmail(email);
    setInvalid(problem);
    if (!problem) void send(email.trim());
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Send a new link" sx={{ display: "grid", gap: 2 }}>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={!!invalid}
        helperText={invalid}
        required
      />
      <Box>
        <Button type="submit" variant="contained" disabled={sending.state === "sending"}>
          Send a new link
        </Button>
      </Box>
      <Outcome sending={sending} sent={(to) => `If ${to} is waiting for confirmation, we sent a new link to it.`} />
    </Box>
  );
}
