import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import { api, errorMessage } from "../shared/api-client.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { isWeakPassword } from "../auth/login-form.ts";

export function validateNewPassword(password: string, confirm: string): { password?: string; confirm?: string } {
  if (!password) return { password: "Please enter a new password." };
  if (isWeakPassword(password)) return { password: "Password is too weak. Please choose a stronger one." };
  if (password !== confirm) return { confirm: "Passwords do not match." };
  return {};
}

export function AccountTab() {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateNewPassword(password, confirm);
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    try {
      await api.post("/auth/password", { password });
      setPassword("");
      setConfirm("");
      setNotice({ kind: "success", text: "Your password has been changed." });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Change password" sx={{ display: "grid", gap: 2, maxWidth: 420 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <TextField label="New Password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={!!errors.password} helperText={errors.password ?? "At least 8 characters, with a letter and a digit."} />
      <TextField label="Confirm New Password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={!!errors.confirm} helperText={errors.confirm} />
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Password
        </Button>
      </Box>
    </Box>
  );
}
