import MarkEmailUnreadIcon from "@mui/icons-material/MarkEmailUnread";
import { EarlyAccessList, type EarlyAccessRequest } from "./request-list.tsx";

export default {
  list: EarlyAccessList,
  icon: MarkEmailUnreadIcon,
  options: { label: "Early access" },
  recordRepresentation: (r: EarlyAccessRequest) => `${r.name} <${r.email}>`,
};
