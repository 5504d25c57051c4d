import { Link as RouterLink } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import StarIcon from "@mui/icons-material/Star";
import { briefMomentText } from "@booking/contracts";
import { browserZone } from "../shared/local-time.ts";
import { moneyText } from "../shared/money.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";
import type { ExpertListItem } from "../shared/api-types.ts";
import { ApprovedMark } from "./approved-badge.tsx";
import { expertDetailQuery } from "./expert-queries.ts";
import { initials } from "./initials.ts";

export { initials };

/** "Rated 4.5 out of 5 from 2 reviews", or "Not rated yet". */
export const ratingLabel = (e: Pick<ExpertListItem, "rating" | "review_count">) =>
  e.rating === null
    ? "Not rated yet"
    : `Rated ${e.rating.toFixed(1)} out of 5 from ${e.review_count} review${e.review_count === 1 ? "" : "s"}`;

/** "Next available Wed, Dec 2, 2:00 PM": the first bookable start where the viewer is (the page names the zone). */
export const nextAvailableText = (iso: string, zone = browserZone(), locale = viewerLocale()) =>
  `Next available ${briefMomentText(iso, { zone, locale })}`;

/** "Usually answers within an hour", "within 5 hours", "within 3 days": the median answer rounded up, in days from two days on. */
export function answersWithinText(minutes: number): string {
  const hours = Math.max(1, Math.ceil(minutes / 60));
  if (hours === 1) return "Usually answers within an hour";
  if (hours < 48) return `Usually answers within ${hours} hours`;
  return `Usually answers within ${Math.ceil(minutes / 1440)} days`;
}

export function ExpertCard({ expert }: { expert: ExpertListItem }) {
  const queryClient = useQueryClient();
  const prefetch = () => void queryClient.prefetchQuery(expertDetailQuery(expert.slug));
  return (
    <Card
      component="article"
      variant="outlined"
      onMouseEnter={prefetch}
      onFocusCapture={prefetch}
      data-testid="expert-card"
      sx={{
        position: "relative",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        "&:hover .view-profile, &:focus-within .view-profile": { opacity: 1 },
      }}
    >
      {/* A fixed 4:3 frame whatever the photo's shape: the photo is taken out of the flow (absolute)
          so a portrait one cannot push the frame, and so the card and its row, taller. */}
      <Box
        sx={{
          position: "relative",
          aspectRatio: "4 / 3",
          overflow: "hidden",
          flexShrink: 0,
          bgcolor: "#ede7f6",
          display: "grid",
          placeItems: "center",
        }}
      >
        {expert.image ? (
          <Box
            component="img"
            src={expert.image}
            alt={`Photo of ${expert.name}`}
            sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover" }}
          />
        ) : (
          <Avatar sx={{ width: 88, height: 88, bgcolor: "primary.main", fontSize: 32 }} aria-hidden="true">
            {initials(expert.name)}
          </Avatar>
        )}
        <Box
          className="view-profile"
          aria-hidden="true"
          sx={{
            position: "absolute",
            inset: 0,
            bgcolor: "rgba(40, 20, 90, 0.72)",
            color: "#fff",
            display: "grid",
            placeItems: "center",
            opacity: 0,
            transition: "opacity 200ms",
            fontWeight: 700,
          }}
        >
          View Profile
        </Box>
      </Box>
      <CardContent sx={{ flexGrow: 1 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
          <Typography component="h2" variant="h6" sx={{ lineHeight: 1.3 }}>
            {/* The whole card is the link (stretched over it). */}
            <Link
              component={RouterLink}
              to={`/expert-profile/${expert.slug}`}
              underline="hover"
              color="inherit"
              aria-label={`View Profile of ${expert.name}`}
              sx={{ "&::after": { content: '""', position: "absolute", inset: 0 } }}
            >
              {expert.name}
            </Link>
          </Typography>
          {expert.verified && <ApprovedMark />}
        </Box>
        <Typography color="text.secondary">{expert.role}</Typography>
        <Box sx={{ display: "flex", justifyContent: "space-between", mt: 1.5 }}>
          <Typography sx={{ fontWeight: 700 }}>
            {expert.starting_price_cents === null
              ? "No sessions yet"
              : `${moneyText(expert.starting_price_cents, expert.starting_price_currency ?? undefined, { short: true })} per session`}
          </Typography>
          <Typography
            component="span"
            role="img"
            sx={{ display: "inline-flex", alignItems: "center", gap: 0.25 }}
            aria-label={ratingLabel(expert)}
            data-testid="expert-rating"
          >
            <StarIcon fontSize="small" sx={{ color: "#8a5a00" }} aria-hidden="true" />
            <span aria-hidden="true">{expert.rating === null ? "New" : `${expert.rating.toFixed(1)} (${expert.review_count})`}</span>
          </Typography>
        </Box>
        {/* Two lines kept for these whether shown or not, so every card of a listing is the same height; small print keeps it bounded. */}
        <Box sx={{ mt: 0.5, minHeight: "3em", typography: "caption", lineHeight: 1.5, display: "block", color: "text.secondary" }}>
          {expert.next_available && <Box data-testid="next-available">{nextAvailableText(expert.next_available)}</Box>}
          {expert.median_answer_minutes !== null && (
            <Box data-testid="answers-within">{answersWithinText(expert.median_answer_minutes)}</Box>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
