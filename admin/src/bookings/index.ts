import EventNoteIcon from "@mui/icons-material/EventNote";
import type { Booking } from "./booking-record.ts";
import { BookingList } from "./booking-list.tsx";
import { BookingShow } from "./booking-show.tsx";

export default {
  list: BookingList,
  show: BookingShow,
  icon: EventNoteIcon,
  recordRepresentation: (b: Booking) => `${b.session_title} · ${new Date(b.scheduled_time).toLocaleString()}`,
};
