import PaymentsIcon from "@mui/icons-material/Payments";
import { PayoutList, type Payout } from "./payout-list.tsx";

/** Payouts from the experts' accounts to their banks (GET /admin/payouts). */
export default {
  list: PayoutList,
  icon: PaymentsIcon,
  options: { label: "Payouts" },
  recordRepresentation: (p: Payout) => `${p.payout_key} · ${p.status}`,
};
