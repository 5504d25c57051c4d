import RateReviewIcon from "@mui/icons-material/RateReview";
import { ReviewList } from "./review-list.tsx";
import { reviewLabel, type Review } from "./review-record.ts";
import { ReviewShow } from "./review-show.tsx";

export default {
  list: ReviewList,
  show: ReviewShow,
  icon: RateReviewIcon,
  recordRepresentation: (r: Review) => reviewLabel(r),
};
