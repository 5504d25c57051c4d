import PersonOffIcon from "@mui/icons-material/PersonOff";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { NoShowList } from "./no-show-list.tsx";
import type { NoShow } from "./no-show-record.ts";
import { NoShowShow } from "./no-show-show.tsx";

/** No-show reports (GET /admin/no-shows, id = the booking's id): the contested ones to decide, the open and settled ones. */
export default {
  list: NoShowList,
  show: NoShowShow,
  icon: PersonOffIcon,
  options: { label: "No-shows" },
  recordRepresentation: (n: NoShow) => `${n.session_title} · ${consoleMoment(n.scheduled_time)}`,
};
