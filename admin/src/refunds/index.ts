import CurrencyExchangeIcon from "@mui/icons-material/CurrencyExchange";
import { formatCents } from "../fields/money-field.tsx";
import type { Refund } from "./refund-record.ts";
import { RefundList } from "./refund-list.tsx";
import { RefundShow } from "./refund-show.tsx";

export default {
  list: RefundList,
  show: RefundShow,
  icon: CurrencyExchangeIcon,
  recordRepresentation: (r: Refund) => `${formatCents(r.amount_cents)} · ${r.status}`,
};
