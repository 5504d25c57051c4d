import { useState, type FormEvent } from "react";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorCatalogue, PASSKEY_NAME_MAX, type PasskeyRecord, type PasskeysReply } from "@booking/contracts";
import { addPasskey, passkeyProblem, passkeysSupported } from "../auth/passkey-sign-in.ts";
import { api, errorMessage } from "../shared/api-client.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { localMoment, longDate } from "../shared/local-time.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";

export const passkeysQuery = () =>
  queryOptions({
    queryKey: ["passkeys"],
    queryFn: ({ signal }) => api.get<PasskeysReply>("/auth/passkeys", { signal }),
    staleTime: 0,
  });

type Notice = { kind: "success" | "error"; text: string };

/**
 * Passkeys (issue 33.4): the account's passkeys, each named, with where it was added and when it was
 * last used; adding one made on this device (named by the person, or after the browser), removing
 * one. A passkey signs in alone, and answers the second step after the password.
 */
export function PasskeysSection() {
  const queryClient = useQueryClient();
  const passkeys = useQuery(passkeysQuery());
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useTimedNotice<Notice>();

  const remove = async (p: PasskeyRecord) => {
    setBusy(p.id);
    try {
      await api.delete(`/auth/passkeys/${encodeURIComponent(p.id)}`);
      setNotice({ kind: "success", text: `The passkey “${p.name}” is removed: it no longer signs you in.` });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: passkeysQuery().queryKey });
    }
  };

  if (passkeys.isPending) return <LoadingScreen />;
  if (passkeys.isError) return <Alert severity="error">Your passkeys could not be loaded: {errorMessage(passkeys.error)}</Alert>;
  const list = passkeys.data.passkeys;
  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 640 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <Typography>
        A passkey signs you in with your fingerprint, face or screen lock instead of your password. It also counts as the second step after
        your password. It stays on your device (or in your password manager), and works only on Expert Sessions.
      </Typography>
      {list.length > 0 ? (
        <List aria-label="Your passkeys" disablePadding>
          {list.map((p) => (
            <ListItem
              key={p.id}
              divider
              disableGutters
              sx={{ pr: 12 }}
              secondaryAction={
                <Button size="small" color="error" onClick={() => void remove(p)} disabled={busy !== null} aria-label={`Remove ${p.name}`}>
                  Remove
                </Button>
              }
            >
              <ListItemText
                primary={
                  <>
                    {p.name} {p.synced && <Chip label="Synced" size="small" variant="outlined" sx={{ ml: 1 }} />}
                  </>
                }
                secondary={`Added ${longDate(p.created_at)} on ${p.device} · ${
                  p.last_used_at ? `last used ${localMoment(p.last_used_at)}` : "not used yet"
                }`}
              />
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography color="text.secondary">You have no passkeys yet.</Typography>
      )}
      {passkeysSupported() ? (
        <AddPasskeyForm
          onAdded={(added) => {
            setNotice({ kind: "success", text: `The passkey “${added.name}” is added: you can sign in with it now.` });
            void queryClient.invalidateQueries({ queryKey: passkeysQuery().queryKey });
          }}
        />
      ) : (
        <Typography color="text.secondary">This browser cannot create passkeys. Add one from a browser that can.</Typography>
      )}
    </Box>
  );
}

/** A name, then the device's own prompt: the passkey is made there and kept by the API. */
function AddPasskeyForm({ onAdded }: { onAdded: (added: PasskeyRecord) => void }) {
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const tooLong = name.trim().length > PASSKEY_NAME_MAX;
    setNameError(tooLong ? errorCatalogue.passkey_name_invalid.message : undefined);
    if (tooLong) return;
    setBusy(true);
    try {
      onAdded(await addPasskey(name));
      setName("");
    } catch (error) {
      setFailure(passkeyProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Add a passkey" sx={{ display: "grid", gap: 2, maxWidth: 420 }}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <TextField
        label="Passkey name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={!!nameError}
        helperText={nameError ?? "For example “Work laptop”. Left empty, it is named after this browser."}
        slotProps={{ htmlInput: { maxLength: PASSKEY_NAME_MAX + 10 } }}
      />
      <Stack direction="row">
        <Button type="submit" variant="contained" disabled={busy}>
          Add a Passkey
        </Button>
      </Stack>
    </Box>
  );
}
