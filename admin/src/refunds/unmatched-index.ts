import ReportProblemIcon from "@mui/icons-material/ReportProblem";
import { formatCents } from "../fields/money-field.tsx";
import { UnmatchedRefundList, type UnmatchedRefund } from "./unmatched-refund-list.tsx";

/** Beside Refunds: refunds the provider reported that the product did not record. */
export default {
  list: UnmatchedRefundList,
  icon: ReportProblemIcon,
  options: { label: "Unmatched refunds" },
  recordRepresentation: (r: UnmatchedRefund) => `${formatCents(r.amount_cents)} · ${r.refund_id}`,
};
