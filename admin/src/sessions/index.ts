import VideoCallIcon from "@mui/icons-material/VideoCall";
import type { Session } from "./session-record.ts";
import { SessionList } from "./session-list.tsx";
import { SessionShow } from "./session-show.tsx";

export default {
  list: SessionList,
  show: SessionShow,
  icon: VideoCallIcon,
  recordRepresentation: (s: Session) => s.title,
};
