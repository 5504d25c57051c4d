import { RefundStatus, type AdminRefundReply } from "@booking/contracts";

/** One refund owed, as GET /admin/refunds sends it (contracts' AdminRefundReply), keyed by the event that owed it. */
export type Refund = AdminRefundReply;

export const refundStatusLabels: Record<RefundStatus, string> = { pending: "Pending", failed: "Failed", issued: "Issued" };

export const refundStatusChoices = RefundStatus.options.map((id) => ({ id, name: refundStatusLabels[id] }));
