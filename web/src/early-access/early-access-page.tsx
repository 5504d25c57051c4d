import { useState, type FormEvent } from "react";
import { Link as RouterLink } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { EARLY_ACCESS_NEED_MAX, type EarlyAccessBody } from "@booking/contracts";
import { api, errorMessage } from "../shared/api-client.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { FormPage, FormRefusal } from "../shared/form-page.tsx";
import { checkEarlyAccess, type EarlyAccessErrors, type EarlyAccessInput } from "./early-access-form.ts";

/** Where the landing page's calls to action lead: a visitor asks for an invitation, no account needed. */
export function EarlyAccessPage() {
  useDocumentTitle("Request Early Access");
  const [form, setForm] = useState<EarlyAccessInput>({ name: "", email: "", role: "", need: "" });
  const [errors, setErrors] = useState<EarlyAccessErrors>({});
  // Once a send has been tried, messages follow the fields as they are fixed.
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<EarlyAccessBody | null>(null);

  const set = (field: keyof EarlyAccessInput) => (e: { target: { value: string } }) => {
    const next = { ...form, [field]: e.target.value };
    setForm(next);
    if (tried) {
      const check = checkEarlyAccess(next);
      setErrors(check.ok ? {} : check.errors);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setServerError(null);
    const check = checkEarlyAccess(form);
    setErrors(check.ok ? {} : check.errors);
    if (!check.ok) return;
    setBusy(true);
    try {
      await api.post("/early-access", check.body, { auth: false });
      setSent(check.body);
    } catch (error) {
      setServerError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormPage title="Request Early Access">
      {sent ? (
        <>
          <Alert severity="success" role="status" sx={{ mb: 3 }}>
            Thanks, {sent.name}! We&apos;ll e-mail you at {sent.email} when your invitation is ready.
          </Alert>
          <Button variant="contained" component={RouterLink} to="/">
            Back to the home page
          </Button>
        </>
      ) : (
        <>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            We are opening the marketplace a few people at a time. Tell us who you are and what you need, and we will e-mail you an
            invitation.
          </Typography>
          <Box component="form" noValidate onSubmit={submit} aria-label="Request early access" sx={{ display: "grid", gap: 2 }}>
            <TextField
              label="Name"
              autoComplete="name"
              value={form.name}
              onChange={set("name")}
              error={!!errors.name}
              helperText={errors.name}
              required
            />
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              value={form.email}
              onChange={set("email")}
              error={!!errors.email}
              helperText={errors.email}
              required
            />
            <FormControl error={!!errors.role} required>
              <FormLabel id="early-access-role-label">I am a</FormLabel>
              <RadioGroup row aria-labelledby="early-access-role-label" name="role" value={form.role} onChange={set("role")}>
                <FormControlLabel value="creator" control={<Radio />} label="Creator" />
                <FormControlLabel value="expert" control={<Radio />} label="Expert" />
              </RadioGroup>
              {errors.role && <FormHelperText>{errors.role}</FormHelperText>}
            </FormControl>
            <TextField
              label="What do you need?"
              multiline
              minRows={4}
              value={form.need}
              onChange={set("need")}
              error={!!errors.need}
              helperText={errors.need ?? `${form.need.length} / ${EARLY_ACCESS_NEED_MAX} characters`}
              required
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              Request Access
            </Button>
          </Box>
          <FormRefusal message={serverError} />
        </>
      )}
    </FormPage>
  );
}
