import { useState } from "react";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import EventIcon from "@mui/icons-material/Event";
import { api, errorMessage } from "../shared/api-client.ts";
import type { CalendarFeed as CalendarFeedReply } from "../shared/api-types.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { useCopyLink, useTimedNotice } from "../shared/timed-notices.ts";

export const calendarFeedQuery = () =>
  queryOptions({
    queryKey: ["calendar-feed"],
    queryFn: ({ signal }) => api.get<CalendarFeedReply>("/calendar/feed", { signal }),
    staleTime: 0,
  });

/**
 * The personal calendar feed: a webcal: link that opens the calendar app to subscribe, the https
 * address to paste where an app asks for one, and a new address when the old one was shared by
 * mistake (the old one stops working at once). Signing out everywhere and a password change end
 * the address too (the API raises its generation), so the page says where the new one is.
 */
export function CalendarFeed() {
  const queryClient = useQueryClient();
  const feed = useQuery(calendarFeedQuery());
  const { copied, copy } = useCopyLink();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [renewed, setRenewed] = useTimedNotice<true>();

  const regenerate = async () => {
    setBusy(true);
    setFailure(null);
    try {
      queryClient.setQueryData(calendarFeedQuery().queryKey, await api.post<CalendarFeedReply>("/calendar/feed/regenerate"));
      setConfirming(false);
      setRenewed(true);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (feed.isPending) return <LoadingScreen />;
  if (feed.isError) return <Alert severity="error">Your calendar address could not be loaded: {errorMessage(feed.error)}</Alert>;
  const { webcal_url: webcal, https_url: https } = feed.data;
  return (
    <Box sx={{ display: "grid", gap: 2, maxWidth: 640 }}>
      <Typography>Your confirmed sessions appear in your calendar app and stay up to date there.</Typography>
      <Typography color="text.secondary">
        Signing out everywhere or changing your password ends this address too: copy the new one from here and subscribe again.
      </Typography>
      {renewed && (
        <Alert severity="success" role="status">
          Your calendar has a new address. Subscribe again with it; the old one no longer works.
        </Alert>
      )}
      <Box>
        <Button variant="contained" href={webcal} startIcon={<EventIcon />}>
          Subscribe in your calendar app
        </Button>
      </Box>
      <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start", flexWrap: { xs: "wrap", sm: "nowrap" } }}>
        <TextField
          label="Calendar address"
          value={https}
          fullWidth
          helperText="For apps that ask for an address (Google Calendar: Other calendars, From URL). Keep it private: anyone with it sees your sessions."
          slotProps={{ htmlInput: { readOnly: true }, formHelperText: { sx: { mx: 0 } } }}
          onFocus={(e) => e.target.select()}
        />
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy(https)} sx={{ mt: 1, flexShrink: 0 }}>
          {copied ? "Copied" : "Copy address"}
        </Button>
      </Box>
      <Box>
        <Button onClick={() => setConfirming(true)}>Get a new address</Button>
      </Box>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="new-feed-title">
        <DialogTitle id="new-feed-title">Get a new calendar address?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The current address stops working at once: calendars subscribed to it stop updating, and you subscribe again with the new one.
          </DialogContentText>
          {failure && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Keep the current address</Button>
          <Button variant="contained" onClick={regenerate} disabled={busy}>
            Get a new address
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
