import EventNoteIcon from "@mui/icons-material/EventNote";
import { consoleMoment } from "../fields/date-time-field.tsx";
import type { Booking } from "./booking-record.ts";
import { BookingList } from "./booking-list.tsx";
import { BookingShow } from "./booking-show.tsx";

export default {
  list: BookingList,
  show: BookingShow,
  icon: EventNoteIcon,
  recordRepresentation: (b: Booking) => `${b.session_title} · ${consoleMoment(b.scheduled_time)}`,
};
