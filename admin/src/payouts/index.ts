import AccountBalanceIcon from "@mui/icons-material/AccountBalance";
import { PayoutAccountList } from "./payout-account-list.tsx";
import { expertName, type PayoutAccount } from "./payout-account-record.ts";
import { PayoutAccountShow } from "./payout-account-show.tsx";

/** Each expert's payout account (GET /admin/payout-accounts, id = the expert's id): status, hold, money, statement. */
export default {
  list: PayoutAccountList,
  show: PayoutAccountShow,
  icon: AccountBalanceIcon,
  options: { label: "Payout accounts" },
  recordRepresentation: (a: PayoutAccount) => expertName(a),
};
