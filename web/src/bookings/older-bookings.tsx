import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { UseInfiniteQueryResult } from "@tanstack/react-query";
import type { LoadedBookings } from "./booking-pages.ts";

/**
 * The end of a dashboard's history: a button for the next, older page while there is one, and a
 * line saying the list is complete once several pages were needed to reach the oldest (with one
 * page the list plainly ends there).
 */
export function OlderBookings({ list }: { list: UseInfiniteQueryResult<LoadedBookings> }) {
  if (list.hasNextPage) {
    return (
      <Box sx={{ display: "grid", gap: 1, justifyItems: "start" }}>
        {list.isFetchNextPageError && (
          <Alert severity="error" role="alert">
            Older bookings could not be loaded.
          </Alert>
        )}
        <Button variant="outlined" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? "Loading older bookings…" : "Show older bookings"}
        </Button>
      </Box>
    );
  }
  if ((list.data?.pages ?? 0) > 1) return <Typography color="text.secondary">That's all your bookings.</Typography>;
  return null;
}
