import GavelIcon from "@mui/icons-material/Gavel";
import { DisputeList } from "./dispute-list.tsx";
import type { Dispute } from "./dispute-record.ts";
import { DisputeShow } from "./dispute-show.tsx";

/** Disputes and chargebacks (GET /admin/disputes, id = the provider's dispute id): the open ones by evidence deadline. */
export default {
  list: DisputeList,
  show: DisputeShow,
  icon: GavelIcon,
  options: { label: "Disputes" },
  recordRepresentation: (d: Dispute) => `${d.session_title} · ${d.dispute_id}`,
};
