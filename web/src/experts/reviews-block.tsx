import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { REVIEW_SCALE } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import StarIcon from "@mui/icons-material/Star";
import StarBorderIcon from "@mui/icons-material/StarBorder";
import { ApiError } from "../shared/api-client.ts";
import type { Review } from "../shared/api-types.ts";
import { longDate } from "../shared/local-time.ts";
import { olderReviewsQuery } from "./expert-queries.ts";

// The profile's reviews block (spec section 2): stars 1 to 5, the text, a long date in the viewer's
// locale (issue 27.14), the creator's first name plus last initial; and the expert's public reply under it.

/** "Monday, 4 August 2025" (en-GB), "Monday, August 4, 2025" (en-US): the day a review was written. */
export const reviewDate = (iso: string) => longDate(iso);

/** "Cleo T." (or "Cleo" without a last name). */
export const reviewerName = (r: Review) => [r.creator.first_name, r.creator.last_initial].filter(Boolean).join(" ") || "A creator";

/** Filled stars for the rating, empty ones up to five. */
export function Stars({ rating }: { rating: number }) {
  const filled = Math.max(0, Math.min(REVIEW_SCALE, Math.round(rating)));
  return (
    <Box role="img" aria-label={`${filled} out of ${REVIEW_SCALE} stars`} sx={{ color: "#8a5a00", display: "inline-flex" }}>
      {Array.from({ length: REVIEW_SCALE }, (_, i) =>
        i < filled ? (
          <StarIcon key={i} fontSize="small" aria-hidden="true" />
        ) : (
          <StarBorderIcon key={i} fontSize="small" aria-hidden="true" />
        ),
      )}
    </Box>
  );
}

export function ReviewItem({ review, expertName }: { review: Review; expertName: string }) {
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2, listStyle: "none" }} data-testid="review">
      <Stars rating={review.rating} />
      {review.review && <Typography sx={{ my: 1, whiteSpace: "pre-line" }}>{review.review}</Typography>}
      <Typography variant="body2" color="text.secondary">
        {reviewerName(review)} · {reviewDate(review.created_at)}
      </Typography>
      {review.reply && (
        <Box sx={{ mt: 1.5, pl: 2, borderLeft: 3, borderColor: "divider" }} data-testid="review-reply">
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            Reply from {expertName}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: "pre-line" }}>
            {review.reply.text}
          </Typography>
        </Box>
      )}
    </Paper>
  );
}

/** The older reviews, loaded a page at a time on request from the profile's next page (issue 34.5); a page that failed says so. */
function OlderReviews({ first, expertName }: { first: string; expertName: string }) {
  const [wanted, setWanted] = useState(false);
  const older = useInfiniteQuery(olderReviewsQuery(first, wanted));
  // A page that failed can be asked again: the button stays while one may follow.
  const more = !wanted || older.isError || older.data?.more === true;
  const busy = older.isFetching;
  const showMore = () => (!wanted ? setWanted(true) : older.data ? void older.fetchNextPage() : void older.refetch());
  return (
    <>
      {older.data?.reviews.map((r) => (
        <ReviewItem key={r.id} review={r} expertName={expertName} />
      ))}
      {older.isError && (
        <Alert component="li" severity="error" sx={{ listStyle: "none" }}>
          {older.error instanceof ApiError && older.error.status === 400 ? older.error.message : "Couldn't load more reviews."}
        </Alert>
      )}
      {more && (
        <Box component="li" sx={{ listStyle: "none", justifySelf: "center" }}>
          <Button variant="outlined" disabled={busy} onClick={showMore}>
            {busy ? "Loading more reviews..." : "Show more reviews"}
          </Button>
        </Box>
      )}
    </>
  );
}

/** The block itself; nothing while there are no reviews. `next`: the path of the older reviews' first page, while there are any. */
export function ReviewsBlock({
  reviews,
  expertName,
  next = null,
}: {
  reviews: readonly Review[];
  expertName: string;
  next?: string | null;
}) {
  if (reviews.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="reviews-heading" sx={{ mt: 4 }}>
      <Typography id="reviews-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
        Reviews
      </Typography>
      <Box component="ul" sx={{ display: "grid", gap: 2, p: 0 }}>
        {reviews.map((r) => (
          <ReviewItem key={r.id} review={r} expertName={expertName} />
        ))}
        {next && <OlderReviews first={next} expertName={expertName} />}
      </Box>
    </Box>
  );
}
