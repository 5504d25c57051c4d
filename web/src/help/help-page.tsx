import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { SUPPORT_MESSAGE_MAX, SupportMessageBody, type SupportTopic } from "@booking/contracts";
import { api, errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { checkForm, type FormCheck } from "../shared/form-check.ts";
import { Page } from "../shared/layout.tsx";
import { FAQ } from "../landing/landing-content.ts";
import { HOW_IT_WORKS } from "./help-content.ts";

const TOPIC_LABELS: Record<SupportTopic, string> = {
  booking: "A booking",
  payment: "A payment",
  refund: "A refund",
  expert: "Becoming or being an expert",
  account: "My account",
  other: "Something else",
};

type ContactInput = { name: string; email: string; topic: SupportTopic | ""; message: string };

const checkContact = (input: ContactInput): FormCheck<SupportMessageBody, keyof ContactInput> =>
  checkForm(SupportMessageBody, { ...input, topic: input.topic || undefined });

function ContactForm() {
  const { user } = useAuth();
  const [form, setForm] = useState<ContactInput>({
    name: user ? [user.first_name, user.last_name].filter(Boolean).join(" ") : "",
    email: user?.email ?? "",
    topic: "",
    message: "",
  });
  const [errors, setErrors] = useState<Partial<Record<keyof ContactInput, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const set = (field: keyof ContactInput) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const check = checkContact(form);
    setErrors(check.ok ? {} : check.errors);
    if (!check.ok) return;
    setBusy(true);
    try {
      await api.post("/support/messages", check.body, { auth: false });
      setSentTo(check.body.email);
    } catch (error) {
      setServerError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (sentTo)
    return (
      <Alert severity="success" role="status">
        Thank you. Your message is with our support team, and we will answer you at {sentTo}, usually within one working day.
      </Alert>
    );
  return (
    <Box component="form" aria-label="Contact support" noValidate onSubmit={submit} sx={{ display: "grid", gap: 2 }}>
      <TextField
        label="Your name"
        required
        value={form.name}
        onChange={set("name")}
        error={!!errors.name}
        helperText={errors.name}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <TextField
        label="Email"
        type="email"
        required
        value={form.email}
        onChange={set("email")}
        error={!!errors.email}
        helperText={errors.email ?? "Where we answer you."}
      />
      <TextField
        select
        label="What is it about?"
        required
        value={form.topic}
        onChange={set("topic")}
        error={!!errors.topic}
        helperText={errors.topic}
      >
        {Object.entries(TOPIC_LABELS).map(([value, label]) => (
          <MenuItem key={value} value={value}>
            {label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Your message"
        required
        multiline
        minRows={4}
        value={form.message}
        onChange={set("message")}
        error={!!errors.message}
        helperText={errors.message ?? `${form.message.length} / ${SUPPORT_MESSAGE_MAX}. For a booking, say which session and when.`}
      />
      {serverError && (
        <Alert severity="error" role="alert">
          {serverError}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Send message
        </Button>
      </Box>
    </Box>
  );
}

/** Our own help page (issue 27.3): how booking, payment, refunds and vetting work, the FAQ and a contact form. */
export function HelpPage() {
  useDocumentTitle("Help");
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        Help
      </Typography>
      <Typography sx={{ mb: 3 }}>How Expert Sessions works, answers to common questions, and how to reach us.</Typography>
      <Box component="nav" aria-label="On this page" sx={{ mb: 3 }}>
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {HOW_IT_WORKS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
          <li>
            <a href="#faq">Frequently asked questions</a>
          </li>
          <li>
            <a href="#contact">Contact us</a>
          </li>
        </Box>
      </Box>
      {HOW_IT_WORKS.map((s) => (
        <Box component="section" key={s.id} id={s.id} aria-labelledby={`${s.id}-heading`} sx={{ mb: 3 }}>
          <Typography id={`${s.id}-heading`} variant="h5" component="h2" gutterBottom>
            {s.title}
          </Typography>
          {s.paragraphs.map((p) => (
            <Typography key={p} sx={{ mb: 1 }}>
              {p}
            </Typography>
          ))}
          {"list" in s && (
            <>
              <Typography id={`${s.id}-list`} component="h3" sx={{ fontWeight: 700 }}>
                {s.list.title}
              </Typography>
              <Box component="ul" aria-labelledby={`${s.id}-list`} sx={{ mt: 0.5, pl: 3 }}>
                {s.list.items.map((line) => (
                  <li key={line}>
                    <Typography>{line}</Typography>
                  </li>
                ))}
              </Box>
            </>
          )}
        </Box>
      ))}
      <Box component="section" id="faq" aria-labelledby="faq-heading" sx={{ mb: 3 }}>
        <Typography id="faq-heading" variant="h5" component="h2" gutterBottom>
          Frequently asked questions
        </Typography>
        {FAQ.map((item) => (
          <Box key={item.q} sx={{ mb: 2 }}>
            <Typography component="h3" sx={{ fontWeight: 700 }}>
              {item.q}
            </Typography>
            <Typography>{item.a}</Typography>
          </Box>
        ))}
      </Box>
      <Paper component="section" id="contact" aria-labelledby="contact-heading" variant="outlined" sx={{ p: 3 }}>
        <Typography id="contact-heading" variant="h5" component="h2" gutterBottom>
          Contact us
        </Typography>
        <Typography sx={{ mb: 2 }}>Did not find your answer? Write to our support team; no account needed.</Typography>
        <ContactForm />
      </Paper>
    </Page>
  );
}
