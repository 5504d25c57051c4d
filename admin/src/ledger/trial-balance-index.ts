import BalanceIcon from "@mui/icons-material/Balance";
import { TrialBalanceList } from "./trial-balance-list.tsx";
import type { TrialBalanceRow } from "./trial-balance-record.ts";

/** The ledger's trial balance (GET /admin/ledger/trial-balance), in the menu as "Trial balance". */
export default {
  list: TrialBalanceList,
  icon: BalanceIcon,
  options: { label: "Trial balance" },
  recordRepresentation: (r: TrialBalanceRow) => `${r.account} · ${r.currency}`,
};
