import SyncAltIcon from "@mui/icons-material/SyncAlt";
import { TransferList, type Transfer } from "./transfer-list.tsx";

/** Released shares and their transfers to the experts' accounts (GET /admin/transfers). */
export default {
  list: TransferList,
  icon: SyncAltIcon,
  options: { label: "Transfers" },
  recordRepresentation: (t: Transfer) => `${t.booking_id} · ${t.status}`,
};
