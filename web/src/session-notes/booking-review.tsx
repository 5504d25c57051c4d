import { useState, type FormEvent } from "react";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { REVIEW_SCALE, REVIEW_TEXT_MAX_CHARS, type BookingReviewReply, type BookingReviewState } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Rating from "@mui/material/Rating";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { longDate } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { reviewDate, Stars } from "../experts/reviews-block.tsx";

// A completed booking's review, on its session notes page: its creator leaves one (1 to 5 stars,
// up to 2,000 characters) and edits it for 14 days; its expert replies once, in public. The
// server decides (and answers with the catalogue's message); the page says what it may do.

export const reviewQuery = (bookingId: string) =>
  queryOptions({
    queryKey: [...BOOKINGS_KEY, "review", bookingId],
    queryFn: ({ signal }) => api.get<BookingReviewState>(`/bookings/${bookingId}/review`, { signal }),
    staleTime: 0,
    retry: false,
  });

function ReviewForm({ booking, review, onDone }: { booking: Booking; review: BookingReviewReply | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [rating, setRating] = useState<number | null>(review?.rating ?? null);
  const [text, setText] = useState(review?.text ?? "");
  const save = useMutation({
    mutationFn: () =>
      review
        ? api.patch<BookingReviewReply>(`/bookings/${booking.id}/review`, { rating, text })
        : api.post<BookingReviewReply>(`/bookings/${booking.id}/review`, { rating, text }),
    onSuccess: (saved) => {
      queryClient.setQueryData(reviewQuery(booking.id).queryKey, { review: saved });
      onDone();
    },
  });
  const tooLong = text.length > REVIEW_TEXT_MAX_CHARS;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Box
      component="form"
      onSubmit={submit}
      noValidate
      sx={{ display: "grid", gap: 2 }}
      aria-label={review ? "Edit your review" : "Leave a review"}
    >
      <Box>
        <Typography component="legend" id="review-rating-label">
          Your rating
        </Typography>
        <Rating
          name="review-rating"
          max={REVIEW_SCALE}
          value={rating}
          onChange={(_e, value) => setRating(value)}
          aria-labelledby="review-rating-label"
        />
      </Box>
      <TextField
        label="Review (optional)"
        multiline
        minRows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={tooLong}
        helperText={`${text.length} / ${REVIEW_TEXT_MAX_CHARS} characters`}
      />
      {save.isError && <Alert severity="error">{errorMessage(save.error)}</Alert>}
      <Box sx={{ display: "flex", gap: 1 }}>
        <Button type="submit" variant="contained" disabled={rating === null || tooLong || save.isPending}>
          {review ? "Save Review" : "Submit Review"}
        </Button>
        {review && (
          <Button variant="text" onClick={onDone}>
            Cancel
          </Button>
        )}
      </Box>
    </Box>
  );
}

function ReplyForm({ booking }: { booking: Booking }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const post = useMutation({
    mutationFn: () => api.post<BookingReviewReply>(`/bookings/${booking.id}/review/reply`, { text }),
    onSuccess: (saved) => queryClient.setQueryData(reviewQuery(booking.id).queryKey, { review: saved }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    post.mutate();
  };
  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: "grid", gap: 1, mt: 2 }} aria-label="Reply to this review">
      <TextField
        label="Your public reply"
        multiline
        minRows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        helperText={`${text.length} / ${REVIEW_TEXT_MAX_CHARS} characters; shown on your profile`}
      />
      {post.isError && <Alert severity="error">{errorMessage(post.error)}</Alert>}
      <Box>
        <Button type="submit" variant="contained" disabled={!text.trim() || text.length > REVIEW_TEXT_MAX_CHARS || post.isPending}>
          Post Reply
        </Button>
      </Box>
    </Box>
  );
}

function ReviewShown({ review }: { review: BookingReviewReply }) {
  return (
    <Box>
      <Stars rating={review.rating} />
      {review.text && <Typography sx={{ my: 1, whiteSpace: "pre-line" }}>{review.text}</Typography>}
      <Typography variant="body2" color="text.secondary">
        Written {reviewDate(review.created_at)}
        {review.edited_at ? ` · edited ${reviewDate(review.edited_at)}` : ""}
      </Typography>
      {review.hidden && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          An admin has hidden this review: it is not shown on the profile or counted in the rating.
        </Alert>
      )}
      {review.reply && (
        <Box sx={{ mt: 1.5, pl: 2, borderLeft: 3, borderColor: "divider" }}>
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            The expert's reply
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: "pre-line" }}>
            {review.reply.text}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

/** The review section of a booking's notes page: for its creator and its expert, once the session is completed. */
export function BookingReview({ booking, now = () => Date.now() }: { booking: Booking; now?: () => number }) {
  const auth = useAuth();
  const [editing, setEditing] = useState(false);
  const isCreator = auth.user?.id === booking.creator_id;
  const isExpert = auth.user?.id === booking.expert_id;
  const completed = booking.status === "completed";
  const review = useQuery({ ...reviewQuery(booking.id), enabled: completed && (isCreator || isExpert) });
  if (!completed || !(isCreator || isExpert) || review.isPending) return null;
  if (review.isError) return <Alert severity="error">{errorMessage(review.error)}</Alert>;
  const r = review.data.review;
  const editable = !!r && now() <= Date.parse(r.editable_until);
  return (
    <Paper component="section" aria-labelledby="review-heading" variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id="review-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {isCreator ? (r ? "Your review" : "Review this session") : "The creator's review"}
      </Typography>
      {isCreator && (!r || editing) && <ReviewForm booking={booking} review={r} onDone={() => setEditing(false)} />}
      {r && !(isCreator && editing) && <ReviewShown review={r} />}
      {isCreator && r && !editing && (
        <Box sx={{ mt: 2 }}>
          {editable ? (
            <>
              <Button variant="outlined" onClick={() => setEditing(true)}>
                Edit Review
              </Button>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                You can edit your review until {longDate(r.editable_until)}.
              </Typography>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Reviews can be edited for 14 days after they are written.
            </Typography>
          )}
        </Box>
      )}
      {isExpert && !r && <Typography>The creator has not reviewed this session yet.</Typography>}
      {isExpert && r && !r.reply && <ReplyForm booking={booking} />}
    </Paper>
  );
}
