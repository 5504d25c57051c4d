import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { nothingMeasured, standingLines } from "./standing.ts";
import { useStanding } from "./vetting-queries.ts";

/** How an approved expert keeps the standards: answer time, acceptance, cancellations, rating. */
export function StandingSummary() {
  const standing = useStanding();
  return (
    <Paper component="section" variant="outlined" aria-labelledby="standing-heading" sx={{ p: 3 }}>
      <Typography id="standing-heading" variant="h6" component="h2" gutterBottom>
        Your standing
      </Typography>
      {standing.isPending ? (
        <Skeleton variant="rounded" height={96} aria-label="Loading your standing" />
      ) : standing.isError ? (
        <Alert severity="error">Your standing could not be loaded. Please try again later.</Alert>
      ) : nothingMeasured(standing.data) ? (
        <Typography>Nothing measured yet: your standing shows here once creators book you.</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 3, display: "grid", gap: 0.5 }}>
          {standingLines(standing.data).map((line) => (
            <li key={line}>
              <Typography>{line}</Typography>
            </li>
          ))}
        </Box>
      )}
    </Paper>
  );
}
