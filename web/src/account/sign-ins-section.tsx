import { useState } from "react";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import type { SignInRecord, SignInsReply } from "@booking/contracts";
import { api, errorMessage } from "../shared/api-client.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { localMoment } from "../shared/local-time.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";

export const signInsQuery = () =>
  queryOptions({
    queryKey: ["sign-ins"],
    queryFn: ({ signal }) => api.get<SignInsReply>("/auth/sign-ins", { signal }),
    staleTime: 0,
  });

/**
 * Where you're signed in (issue 33.5): each sign-in still in force, with the device it began on and
 * when it was last used; any but this one can be signed out, or all the others at once. A signed-out
 * device needs the password again (its refresh stops, and so do its calls).
 */
export function SignInsSection() {
  const queryClient = useQueryClient();
  const signIns = useQuery(signInsQuery());
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useTimedNotice<{ kind: "success" | "error"; text: string }>();

  const act = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await work();
      setNotice({ kind: "success", text: done });
    } catch (error) {
      setNotice({ kind: "error", text: errorMessage(error) });
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: signInsQuery().queryKey });
    }
  };
  const signOut = (s: SignInRecord) =>
    act(s.id, () => api.delete(`/auth/sign-ins/${encodeURIComponent(s.id)}`), `${s.device} is signed out.`);
  const signOutOthers = () => act("others", () => api.post("/auth/logout", { scope: "others" }), "You are signed out everywhere else.");

  if (signIns.isPending) return <LoadingScreen />;
  if (signIns.isError) return <Alert severity="error">Your sign-ins could not be loaded: {errorMessage(signIns.error)}</Alert>;
  const list = signIns.data.sign_ins;
  const others = list.filter((s) => !s.current);
  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 640 }}>
      {notice && (
        <Alert severity={notice.kind} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </Alert>
      )}
      <List aria-label="Your sign-ins" disablePadding>
        {list.map((s) => (
          <ListItem
            key={s.id}
            divider
            disableGutters
            // Room for the action beside the text: MUI's default leaves a button's worth less, and it covered "last active".
            sx={{ pr: 13 }}
            secondaryAction={
              s.current ? (
                <Chip label="This device" color="primary" variant="outlined" size="small" />
              ) : (
                <Button
                  size="small"
                  onClick={() => void signOut(s)}
                  disabled={busy !== null}
                  aria-label={`Sign out ${s.device}, last active ${localMoment(s.last_seen_at)}`}
                >
                  Sign out
                </Button>
              )
            }
          >
            <ListItemText
              primary={s.device}
              secondary={`Signed in ${localMoment(s.first_seen_at)} · last active ${localMoment(s.last_seen_at)}`}
            />
          </ListItem>
        ))}
      </List>
      {others.length > 0 && (
        <Box>
          <Button variant="outlined" onClick={() => void signOutOthers()} disabled={busy !== null}>
            Sign Out Everywhere Else
          </Button>
        </Box>
      )}
    </Box>
  );
}
