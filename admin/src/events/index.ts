import ListAltIcon from "@mui/icons-material/ListAlt";
import { EventList } from "./event-list.tsx";
import type { LoggedEvent } from "./event-record.ts";
import { EventShow } from "./event-show.tsx";

export default {
  list: EventList,
  show: EventShow,
  icon: ListAltIcon,
  options: { label: "Event log" },
  recordRepresentation: (e: LoggedEvent) => `${e.type} · ${e.stream_id}`,
};
