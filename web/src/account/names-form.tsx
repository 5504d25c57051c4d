import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Me } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useTimedNotice } from "../shared/timed-notices.ts";

export type NamesErrors = { firstName?: string; lastName?: string };

/** The server's rule: both names, trimmed, at most 100 characters. */
export function validateNames(firstName: string, lastName: string): NamesErrors {
  const errors: NamesErrors = {};
  const check = (name: string, label: string) =>
    !name.trim() ? `Please enter your ${label}.` : name.trim().length > 100 ? `Your ${label} can be at most 100 characters.` : undefined;
  const first = check(firstName, "first name");
  const last = check(lastName, "last name");
  if (first) errors.firstName = first;
  if (last) errors.lastName = last;
  return errors;
}

/** First and last name of the signed-in user (PATCH /auth/me); the header's greeting follows. */
export function NamesForm({ user }: { user: Pick<Me, "first_name" | "last_name"> }) {
  const { reloadUser } = useAuth();
  const [firstName, setFirstName] = useState(user.first_name ?? "");
  const [lastName, setLastName] = useState(user.last_name ?? "");
  const [errors, setErrors] = useState<NamesErrors>({});
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateNames(firstName, lastName);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api.patch<Me>("/auth/me", { first_name: firstName.trim(), last_name: lastName.trim() });
      await reloadUser();
      setNotice({ kind: "success", text: "Your name has been saved." });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Your name" sx={{ display: "grid", gap: 2, maxWidth: 420 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <TextField
        label="First Name"
        autoComplete="given-name"
        value={firstName}
        onChange={(e) => setFirstName(e.target.value)}
        error={!!errors.firstName}
        helperText={errors.firstName}
      />
      <TextField
        label="Last Name"
        autoComplete="family-name"
        value={lastName}
        onChange={(e) => setLastName(e.target.value)}
        error={!!errors.lastName}
        helperText={errors.lastName}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Name
        </Button>
      </Box>
    </Box>
  );
}
