import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { TwoFactorConfirmReply, TwoFactorEnrolReply } from "@booking/contracts";
import { checkSecondFactor } from "../auth/second-factor-fields.tsx";
import { ApiError, api, errorMessage } from "../shared/api-client.ts";

// Setting up two-factor sign-in (issue 33.4), in three steps: the password again (someone at an
// unlocked computer must not add their own phone), then the QR code (or the key to type) and the
// first code the app shows, then the ten recovery codes, shown this once.

type Step = { kind: "password" } | { kind: "scan"; enrolment: TwoFactorEnrolReply } | { kind: "codes"; codes: string[] };

/** The base32 key in groups of four, as apps that take it typed show it. */
export const groupedKey = (secret: string): string => secret.replace(/(.{4})(?=.)/g, "$1 ");

export function TwoFactorSetup({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [step, setStep] = useState<Step>({ kind: "password" });
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      if (error instanceof ApiError && error.code === "reauthentication_needed") setFieldError("This is not your current password.");
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const enrol = (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setFieldError("Please enter your current password.");
    setFieldError(undefined);
    return send(async () => {
      const enrolment = await api.post<TwoFactorEnrolReply>("/auth/two-factor/enrol", { current_password: password });
      setPassword("");
      setStep({ kind: "scan", enrolment });
    });
  };

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkSecondFactor({ mode: "code", code, recovery: "" });
    setFieldError(checked.ok ? undefined : checked.error);
    if (!checked.ok) return;
    return send(async () => {
      const { recovery_codes } = await api.post<TwoFactorConfirmReply>("/auth/two-factor/confirm", checked.proof);
      setStep({ kind: "codes", codes: recovery_codes });
    });
  };

  const refusal = failure && (
    <Alert severity="error" role="alert">
      {failure}
    </Alert>
  );

  if (step.kind === "password")
    return (
      <Box
        component="form"
        noValidate
        onSubmit={enrol}
        aria-label="Set up two-factor sign-in"
        sx={{ display: "grid", gap: 2, maxWidth: 420 }}
      >
        {refusal}
        <Typography>First, enter your password again.</Typography>
        <TextField
          label="Current Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!fieldError}
          helperText={fieldError}
          autoFocus
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={busy}>
            Continue
          </Button>
          <Button onClick={onCancel}>Cancel</Button>
        </Stack>
      </Box>
    );

  if (step.kind === "scan") {
    const { qr_code, secret } = step.enrolment;
    return (
      <Box
        component="form"
        noValidate
        onSubmit={confirm}
        aria-label="Confirm two-factor sign-in"
        sx={{ display: "grid", gap: 2, maxWidth: 480 }}
      >
        {refusal}
        <Typography>
          Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy and others).
        </Typography>
        <Box component="img" src={qr_code} alt="QR code to scan with your authenticator app" sx={{ width: 200, height: 200 }} />
        <Typography variant="body2">
          Can&apos;t scan it? Enter this key in the app instead:{" "}
          <Box component="code" sx={{ fontFamily: "monospace", fontSize: "1rem" }} aria-label="Key for your authenticator app">
            {groupedKey(secret)}
          </Box>
        </Typography>
        <TextField
          label="6-digit code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={!!fieldError}
          helperText={fieldError ?? "Then enter the code the app shows for Expert Sessions."}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 7 } }}
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={busy}>
            Turn On
          </Button>
          <Button onClick={onCancel}>Cancel</Button>
        </Stack>
      </Box>
    );
  }

  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 480 }}>
      <Alert severity="success" role="status">
        Two-factor sign-in is on. From now on you sign in with your password and a code from the app.
      </Alert>
      <Typography>
        Save these recovery codes somewhere safe, apart from your phone: each signs you in once if you lose it. They are shown only now.
      </Typography>
      <Box component="ol" aria-label="Recovery codes" sx={{ fontFamily: "monospace", fontSize: "1.05rem", columns: 2, m: 0 }}>
        {step.codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Box>
        <Button variant="contained" onClick={onDone}>
          I Saved Them
        </Button>
      </Box>
    </Box>
  );
}
