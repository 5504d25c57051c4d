import { Alert, Box, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useDataProvider, useRecordContext } from "react-admin";
import type { ExpertStandingReply } from "@booking/contracts";
import type { ConsoleDataProvider } from "../data-provider.ts";
import type { Expert } from "./expert-record.ts";

// The standards an expert keeps (issue 30), from their bookings and reviews: how fast they answer requests,
// how many they accept, how often they cancel, how creators rate them, how often they missed a session (issue 31.1).

/** The standard for answering a request: within 24 hours. */
const ANSWER_WITHIN_MINUTES = 24 * 60;

/** 45 → "45 min", 200 → "3 h 20 min", 1_560 → "1 d 2 h". */
export function durationText(minutes: number): string {
  const total = Math.round(minutes);
  if (total < 60) return `${total} min`;
  const hours = Math.floor(total / 60);
  if (hours < 24) return total % 60 ? `${hours} h ${total % 60} min` : `${hours} h`;
  return hours % 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${Math.floor(hours / 24)} d`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function figures(s: ExpertStandingReply): [string, ReactNode][] {
  return [
    [
      "Median time to answer",
      s.median_answer_minutes === null
        ? "No request answered yet"
        : `${durationText(s.median_answer_minutes)}${s.median_answer_minutes > ANSWER_WITHIN_MINUTES ? " (over the 24-hour standard)" : ""}`,
    ],
    [
      "Acceptance rate",
      s.acceptance_percent === null
        ? "No request answered yet"
        : `${Math.round(s.acceptance_percent)}% of ${plural(s.answered_requests, "answered request", "answered requests")}`,
    ],
    ["Cancellations by the expert", String(s.cancelled_by_expert)],
    [
      "Average rating",
      s.average_rating === null ? "No reviews yet" : `${s.average_rating.toFixed(1)} of 5 (${plural(s.review_count, "review", "reviews")})`,
    ],
    [
      "No-shows",
      s.no_show_percent === null
        ? "No session held yet"
        : `${plural(s.expert_no_shows, "session", "sessions")} missed (${s.no_show_percent}% of sessions due)`,
    ],
  ];
}

/** Labels in a column as wide as the longest, values beside them. */
const pairs = { display: "grid", gridTemplateColumns: "minmax(8rem, max-content) minmax(0, 1fr)", columnGap: 2, rowGap: 1, m: 0 };

/** GET /admin/experts/{id}/standing, as label/value pairs. */
export function ExpertStanding(_props: { label?: string }) {
  const expert = useRecordContext<Expert>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const id = String(expert?.id ?? "");
  const { data, error, isPending } = useQuery({
    queryKey: ["experts", "standing", id],
    queryFn: () => dataProvider.expertStanding(id),
    enabled: !!expert,
  });
  if (error) {
    return (
      <Alert severity="error" sx={{ py: 0 }}>
        {`The standards could not be read: ${error.message}`}
      </Alert>
    );
  }
  if (isPending) return <Typography variant="body2">Reading the standards…</Typography>;
  return (
    <Box component="dl" sx={pairs} data-testid="expert-standing">
      {figures(data).flatMap(([label, value]) => [
        <Typography key={`${label}-label`} component="dt" variant="body2" color="text.secondary">
          {label}
        </Typography>,
        <Typography key={`${label}-value`} component="dd" variant="body2" sx={{ m: 0 }}>
          {value}
        </Typography>,
      ])}
    </Box>
  );
}
