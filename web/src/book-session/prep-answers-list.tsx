import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { Booking } from "../shared/api-types.ts";
import { prepQuestionsOf } from "./prep-answers.ts";

/** The session's preparation questions, each with the creator's answer (or "Not answered yet"), as a description list. */
export function PrepAnswersList({ booking }: { booking: Booking }) {
  const questions = prepQuestionsOf(booking);
  const answers = [booking.prep_response_1, booking.prep_response_2, booking.prep_response_3];
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {questions.map((q, i) => (
        <Box key={i} sx={{ mb: 2 }}>
          <Typography component="dt" sx={{ fontWeight: 700 }}>
            {q}
          </Typography>
          <Typography component="dd" sx={{ ml: 0 }} data-testid={`prep-answer-${i + 1}`}>
            {answers[i] ?? <em>Not answered yet</em>}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
