import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { Link as RouterLink, useLocation, useNavigate, useParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  CURRENCIES,
  MAX_PREP_QUESTIONS,
  REQUEST_ANSWER_HOURS,
  SESSION_LENGTHS_MINUTES,
  TIMERS_MS,
  type Currency,
} from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import InputAdornment from "@mui/material/InputAdornment";
import Link from "@mui/material/Link";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import { api, ApiError } from "../shared/api-client.ts";
import type { Session } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { currencySymbol } from "../shared/money.ts";
import {
  emptySessionForm,
  formFromSession,
  sanitizePrice,
  savedCurrency,
  sessionBody,
  shareLine,
  shownErrors,
  validateSession,
  type SessionErrors,
  type SessionForm,
} from "./session-form.ts";
import { sessionStatusLabel } from "../expert-dashboard/sessions-tab.tsx";
import { SessionCutOffFields } from "./session-cut-offs.tsx";

type Notice = { kind: "success" | "error"; text: string };

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError ? error.message : error instanceof Error && error.message ? error.message : fallback;

export function EditSessionPage() {
  const { sessionId } = useParams();
  const session = useQuery({
    queryKey: ["session", sessionId],
    queryFn: ({ signal }) => api.get<Session>(`/sessions/${sessionId}`, { signal }),
    enabled: !!sessionId,
    staleTime: 0,
    retry: false,
  });
  useDocumentTitle(sessionId ? "Edit Session" : "New Session");
  if (sessionId && session.isPending)
    return (
      <Page>
        <LoadingScreen label="Loading Session" />
      </Page>
    );
  if (sessionId && (session.isError || !session.data)) {
    return (
      <Page>
        <Typography variant="h4" component="h1" gutterBottom>
          Session Not Found
        </Typography>
        <ReturnLink />
      </Page>
    );
  }
  return (
    <Page>
      <SessionEditor key={sessionId ?? "new"} session={session.data ?? null} />
    </Page>
  );
}

function ReturnLink() {
  const auth = useAuth();
  return (
    <Link component={RouterLink} to={`/expert-dashboard/${auth.user?.id ?? ""}`}>
      Return to Your Sessions
    </Link>
  );
}

export function SessionEditor({ session }: { session: Session | null }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SessionForm>(() => (session ? formFromSession(session) : emptySessionForm()));
  // Fields the expert has left or tried to save: their messages follow every change from then on.
  const [touched, setTouched] = useState<ReadonlySet<keyof SessionErrors>>(new Set());
  const errors = shownErrors(validateSession(form), touched);
  const touch = (field: keyof SessionErrors) => () => setTouched((t) => (t.has(field) ? t : new Set([...t, field])));
  const [notice, setNotice] = useState<Notice | null>(null);
  const [status, setStatus] = useState(session?.status ?? "draft");
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const location = useLocation();
  const savedJustNow = (location.state as { saved?: boolean } | null)?.saved === true;
  const redirect = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = session?.id ?? null;
  const saved = session ? savedCurrency(session) : undefined;
  const share = shareLine(form);
  const expertId = auth.user?.expert_id ?? auth.user?.id ?? "";

  useEffect(() => () => clearTimeout(redirect.current), []);

  const set =
    (field: "title" | "description" | "session_details" | "ideal_for") => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((f) => ({ ...f, [field]: e.target.value }));
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["sessions", expertId] });
    void queryClient.invalidateQueries({ queryKey: ["expert"] });
    void queryClient.invalidateQueries({ queryKey: ["experts"] });
  };

  const save = async () => {
    const found = validateSession(form);
    setTouched(new Set(["title", "price", "length", "questions"]));
    setNotice(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      if (id) {
        const reply = await api.put<{ session: Session }>(`/sessions/${id}`, sessionBody(form, saved));
        queryClient.setQueryData(["session", id], reply.session);
        setNotice({ kind: "success", text: "Your session has been saved successfully!" });
      } else {
        const reply = await api.post<{ session: Session }>("/sessions", { ...sessionBody(form), expert_id: expertId, status: "draft" });
        queryClient.setQueryData(["session", reply.session.id], reply.session);
        refresh();
        navigate(`/edit-session/${reply.session.id}`, { replace: true, state: { saved: true } });
        return;
      }
      refresh();
    } catch (error) {
      setNotice({ kind: "error", text: messageOf(error, "There was an error with your submission") });
    } finally {
      setBusy(false);
    }
  };

  const togglePublish = async () => {
    setNotice(null);
    if (!id) return;
    const next = status === "published" ? "draft" : "published";
    setBusy(true);
    try {
      const reply = await api.put<{ session: Session }>(`/sessions/${id}`, { status: next });
      setStatus(reply.session.status);
      queryClient.setQueryData(["session", id], reply.session);
      refresh();
      setNotice({ kind: "success", text: next === "published" ? "Session published successfully!" : "Session unpublished successfully!" });
    } catch (error) {
      setNotice({ kind: "error", text: messageOf(error, "Failed to publish session") });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    setNotice(null);
    if (!id) return;
    setBusy(true);
    try {
      await api.delete(`/sessions/${id}`);
      refresh();
      setNotice({ kind: "success", text: "Session deleted successfully" });
      redirect.current = setTimeout(() => navigate(`/expert-dashboard/${auth.user?.id ?? ""}`), TIMERS_MS.deleteRedirect);
    } catch (error) {
      setNotice({ kind: "error", text: messageOf(error, "Failed to delete session") });
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 760 }}>
      <Link component={RouterLink} to={`/expert-dashboard/${auth.user?.id ?? ""}`}>
        Return to Your Sessions
      </Link>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, mt: 2, mb: 2, flexWrap: "wrap" }}>
        <Typography variant="h4" component="h1">
          {id ? "Edit Session" : "New Session"}
        </Typography>
        {id && (
          <Chip
            label={sessionStatusLabel(status)}
            color={status === "published" ? "success" : "default"}
            // No background animation: mid-transition colours fail contrast checks; the dark green keeps white text at AA.
            sx={{ transition: "none", ...(status === "published" && { bgcolor: "success.dark", color: "common.white" }) }}
            data-testid="session-status"
          />
        )}
      </Box>
      {notice ? (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"} sx={{ mb: 2 }}>
          {notice.text}
        </Alert>
      ) : (
        savedJustNow && (
          <Alert severity="success" role="status" sx={{ mb: 2 }}>
            Your session has been saved successfully!
          </Alert>
        )
      )}
      <Box
        component="form"
        noValidate
        aria-label="Session"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        sx={{ display: "grid", gap: 2 }}
      >
        <TextField
          label="Session Title"
          value={form.title}
          onChange={set("title")}
          onBlur={touch("title")}
          required
          error={!!errors.title}
          helperText={errors.title}
        />
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr 1fr" } }}>
          {/* Under the price before it is published: what the expert receives of it, and the fee named (issue 29.1). */}
          <TextField
            label={`Session Price (${form.currency})`}
            value={form.price}
            onChange={(e) => setForm((f) => ({ ...f, price: sanitizePrice(e.target.value) }))}
            onBlur={touch("price")}
            required
            error={!!errors.price}
            helperText={errors.price ?? share ?? undefined}
            slotProps={{
              htmlInput: { inputMode: "decimal" },
              input: { startAdornment: <InputAdornment position="start">{currencySymbol(form.currency)}</InputAdornment> },
            }}
          />
          <TextField
            select
            label="Currency"
            value={form.currency}
            onChange={(e) => setForm((f) => ({ ...f, currency: e.target.value as Currency }))}
            slotProps={{ select: { native: true } }}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </TextField>
          <TextField
            select
            label="Session Length"
            value={String(form.length_minutes)}
            onChange={(e) => setForm((f) => ({ ...f, length_minutes: Number(e.target.value) }))}
            onBlur={touch("length")}
            error={!!errors.length}
            helperText={errors.length}
            slotProps={{ select: { native: true } }}
          >
            {SESSION_LENGTHS_MINUTES.map((m) => (
              <option key={m} value={m}>
                {m} minutes
              </option>
            ))}
          </TextField>
        </Box>
        <TextField label="Short Description" value={form.description} onChange={set("description")} multiline minRows={2} />
        <TextField
          label="Long Description"
          value={form.session_details}
          onChange={set("session_details")}
          multiline
          minRows={4}
          helperText="What is included in the session."
        />
        <TextField
          label="Who is this session for?"
          value={form.ideal_for}
          onChange={set("ideal_for")}
          helperText="Comma-separated, e.g. podcasters, YouTubers, makers"
        />
        <Box>
          <FormControlLabel
            label="Instant booking"
            control={
              <Switch
                checked={form.instant_booking}
                onChange={(e) => setForm((f) => ({ ...f, instant_booking: e.target.checked }))}
                slotProps={{ input: { "aria-describedby": "instant-booking-help" } }}
              />
            }
          />
          <FormHelperText id="instant-booking-help" sx={{ mt: 0 }}>
            Bookings are confirmed as soon as the creator pays; otherwise you have {REQUEST_ANSWER_HOURS} hours to accept each request.
          </FormHelperText>
        </Box>
        <SessionCutOffFields form={form} onChange={(cutOffs) => setForm((f) => ({ ...f, ...cutOffs }))} />
        <Box
          component="fieldset"
          sx={{ border: 1, borderColor: errors.questions ? "error.main" : "divider", borderRadius: 2, p: 2, m: 0, display: "grid", gap: 2 }}
        >
          <Typography component="legend" sx={{ px: 1 }}>
            Session Questions
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Creators answer these before the session (one to three questions).
          </Typography>
          {form.questions.map((q, i) => (
            <Box key={i} sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
              <TextField
                fullWidth
                label={`Question ${i + 1}`}
                value={q}
                onChange={(e) => setForm((f) => ({ ...f, questions: f.questions.map((x, j) => (j === i ? e.target.value : x)) }))}
                onBlur={touch("questions")}
              />
              <Button
                color="error"
                disabled={form.questions.length <= 1}
                onClick={() => setForm((f) => ({ ...f, questions: f.questions.filter((_, j) => j !== i) }))}
                aria-label={`Remove question ${i + 1}`}
                sx={{ mt: 1 }}
              >
                Remove
              </Button>
            </Box>
          ))}
          {errors.questions && (
            <Typography role="alert" color="error" variant="body2">
              {errors.questions}
            </Typography>
          )}
          {form.questions.length < MAX_PREP_QUESTIONS && (
            <Box>
              <Button startIcon={<AddIcon />} onClick={() => setForm((f) => ({ ...f, questions: [...f.questions, ""] }))}>
                Add Question
              </Button>
            </Box>
          )}
        </Box>
        <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
          <Button type="submit" variant="contained" disabled={busy}>
            Save Session
          </Button>
          {/* Issue 27.19: an unsaved session offers neither: publishing waits for the first save, and there is nothing to delete. */}
          <Button
            variant="outlined"
            onClick={togglePublish}
            disabled={busy || !id}
            aria-describedby={id ? undefined : "publish-after-save"}
          >
            {status === "published" ? "Unpublish Session" : "Publish Session"}
          </Button>
          {id && (
            <Button color="error" variant="outlined" onClick={() => setConfirmDelete(true)} disabled={busy}>
              Delete Session
            </Button>
          )}
        </Box>
        {!id && (
          <Typography id="publish-after-save" variant="body2" color="text.secondary">
            Save the session first; then you can publish it.
          </Typography>
        )}
      </Box>
      <Dialog open={confirmDelete} onClose={() => setConfirmDelete(false)} aria-labelledby="delete-session-title">
        <DialogTitle id="delete-session-title">Delete this session?</DialogTitle>
        <DialogContent>
          <DialogContentText>Creators will no longer be able to book it. This cannot be undone.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)}>Keep Session</Button>
          <Button color="error" variant="contained" onClick={remove}>
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
