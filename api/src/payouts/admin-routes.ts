import type pg from "pg";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AdminPayoutAccountReply,
  AdminPayoutReply,
  AdminTransferReply,
  HoldPayoutsBody,
  PayoutExpertParams,
  PayoutStatus,
  TransferState,
  type Currency,
  type PayoutCommand,
} from "@booking/contracts";
import { Flag, IdText, ListQueryString, RecordIdParams, SqlWhere, listPage, oneOrMany, type ListSpec } from "../admin/index.ts";
import type { PayoutCommands } from "../main/index.ts";
import { actorOf, refuse, requireActor, valueOf } from "../http/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { availableShares, pendingShares } from "./balances.ts";
import { sendPayoutCommand } from "./record-payouts.ts";

// The console's payouts (react-admin lists under /admin, for admins only): each expert's payout
// account with what is pending and available per currency, where an admin holds (with a reason)
// or resumes an expert's payouts; every released booking's transfer (attempts, last failure); and
// every payout. Read from the payouts area's tables, which the payout reactor keeps.

export type PayoutAdminDeps = { db: pg.Pool; payouts: PayoutCommands; projected: Projected };

const AccountFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    held: Flag.optional(),
    status: oneOrMany(z.enum(["none", "incomplete", "enabled"])).optional(),
  })
  .strict();
const accountStatusSql = "CASE WHEN e.account_id IS NULL THEN 'none' WHEN e.payouts_enabled THEN 'enabled' ELSE 'incomplete' END";
const accountSpec: ListSpec<typeof AccountFilter> = {
  resource: "payout-accounts",
  sortable: {
    id: "u.user_id",
    name: ["u.last_name", "u.first_name"],
    status: accountStatusSql,
    held: "COALESCE(e.held, false)",
    updated_at: "e.updated_at",
  },
  defaultSort: ["updated_at", "DESC"],
  uniqueKey: "u.user_id",
  filter: AccountFilter,
};
const accountFrom = "users u LEFT JOIN payout_experts e ON e.expert_id = u.user_id";
function accountWhere(f: z.output<typeof AccountFilter>): SqlWhere {
  const w = new SqlWhere().add("(u.role = 'expert' OR e.expert_id IS NOT NULL)");
  if (f.id) w.add(`u.user_id = ANY(${w.param(f.id)})`);
  if (f.held !== undefined) w.add(`COALESCE(e.held, false) = ${w.param(f.held)}`);
  if (f.status) w.add(`${accountStatusSql} = ANY(${w.param(f.status)})`);
  return w;
}
type AccountRaw = {
  expert_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  status: "none" | "incomplete" | "enabled";
  provider: "stripe" | "test" | null;
  account_id: string | null;
  held: boolean;
  held_reason: string | null;
  updated_at: Date | null;
};
const accountSelect =
  `u.user_id AS expert_id, u.first_name, u.last_name, u.email, ${accountStatusSql} AS status, e.provider, e.account_id, ` +
  "COALESCE(e.held, false) AS held, e.held_reason, e.updated_at";

const TransferFilter = z
  .object({ id: oneOrMany(IdText).optional(), status: oneOrMany(TransferState).optional(), expert_id: IdText.optional() })
  .strict();
const transferSpec: ListSpec<typeof TransferFilter> = {
  resource: "transfers",
  sortable: Object.fromEntries(
    ["released_at", "completed_at", "share_cents", "status", "attempts", "next_attempt_at", "transferred_at", "expert_id"].map((c) => [
      c,
      { share_cents: "b.released_share_cents", status: "b.transfer_status" }[c] ?? `b.${c}`,
    ]),
  ),
  defaultSort: ["released_at", "DESC"],
  uniqueKey: "b.booking_id",
  filter: TransferFilter,
};
function transferWhere(f: z.output<typeof TransferFilter>): SqlWhere {
  const w = new SqlWhere().add("b.released_at IS NOT NULL");
  if (f.id) w.add(`b.booking_id = ANY(${w.param(f.id)})`);
  if (f.status) w.add(`b.transfer_status = ANY(${w.param(f.status)})`);
  if (f.expert_id) w.add(`b.expert_id = ${w.param(f.expert_id)}`);
  return w;
}
const transferSelect =
  "b.booking_id AS id, b.booking_id, b.expert_id, b.currency, b.paid_cents, b.refunded_cents, b.fee_basis_points, b.completed_at, b.released_at, " +
  "b.released_fee_cents AS fee_cents, b.released_share_cents AS share_cents, b.transfer_key, b.transfer_status AS status, b.transfer_id, " +
  "b.transferred_cents, (SELECT COALESCE(sum(r.amount_cents), 0) FROM payout_reversals r WHERE r.booking_id = b.booking_id AND r.status = 'reversed') " +
  "AS reversed_cents, (SELECT COALESCE(sum(r.amount_cents), 0) FROM payout_reversals r WHERE r.booking_id = b.booking_id " +
  "AND r.status IN ('pending', 'failed')) AS reversal_owed_cents, (SELECT r.last_error FROM payout_reversals r " +
  "WHERE r.booking_id = b.booking_id AND r.status = 'failed' ORDER BY r.updated_at DESC LIMIT 1) AS reversal_error, " +
  "b.transfer_attempts AS attempts, b.next_attempt_at, b.last_error, b.transferred_at";

const PayoutFilter = z
  .object({ id: oneOrMany(IdText).optional(), status: oneOrMany(PayoutStatus).optional(), expert_id: IdText.optional() })
  .strict();
const payoutSpec: ListSpec<typeof PayoutFilter> = {
  resource: "payouts",
  sortable: Object.fromEntries(["requested_at", "amount_cents", "status", "attempts", "paid_at", "expert_id"].map((c) => [c, `p.${c}`])),
  defaultSort: ["requested_at", "DESC"],
  uniqueKey: "p.payout_key",
  filter: PayoutFilter,
};
function payoutWhere(f: z.output<typeof PayoutFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`p.payout_key = ANY(${w.param(f.id)})`);
  if (f.status) w.add(`p.status = ANY(${w.param(f.status)})`);
  if (f.expert_id) w.add(`p.expert_id = ${w.param(f.expert_id)}`);
  return w;
}
const payoutSelect =
  "p.payout_key AS id, p.payout_key, p.expert_id, p.amount_cents, p.currency, p.by, p.status, p.payout_id, p.failure_reason, p.attempts, " +
  "p.next_attempt_at, p.last_error, p.requested_at, p.paid_at, p.failed_at";

/** Postgres's bigints (as text) and times (as Dates) as the reply's numbers and ISO strings. */
function jsonRow<T>(row: Record<string, unknown>, numbers: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = v instanceof Date ? v.toISOString() : numbers.includes(k) && v !== null ? Number(v) : v;
  return out as T;
}

export const payoutAdminRoutes: RoutePlugin<PayoutAdminDeps> = async (app, { db, payouts, projected }) => {
  /** Account records with each expert's pending and available money per currency. */
  const accountRecords = async (rows: readonly AccountRaw[]): Promise<AdminPayoutAccountReply[]> => {
    const ids = rows.map((r) => r.expert_id);
    const [pending, available] = await Promise.all([pendingShares(db, ids), availableShares(db, ids)]);
    return rows.map((r) => {
      const currencies = new Set<Currency>([...(pending.get(r.expert_id)?.keys() ?? []), ...(available.get(r.expert_id)?.keys() ?? [])]);
      const name = [r.first_name, r.last_name].filter(Boolean).join(" ") || null;
      return {
        id: r.expert_id,
        expert_id: r.expert_id,
        name,
        email: r.email,
        status: r.status,
        provider: r.provider,
        account_id: r.account_id,
        held: r.held,
        held_reason: r.held_reason,
        balances: [...currencies].sort().map((currency) => ({
          currency,
          pending_cents: pending.get(r.expert_id)?.get(currency) ?? 0,
          available_cents: available.get(r.expert_id)?.get(currency) ?? 0,
        })),
        updated_at: r.updated_at?.toISOString() ?? null,
      };
    });
  };
  const accountRecord = async (expertId: string) => {
    const where = accountWhere({ id: [expertId] });
    const { rows } = await db.query<AccountRaw>(`SELECT ${accountSelect} FROM ${accountFrom} ${where.sql}`, where.values);
    if (!rows[0]) refuse("not_found");
    return (await accountRecords(rows))[0]!;
  };

  await app.register(
    async (plain) => {
      plain.addHook("onRequest", requireActor("admin"));
      const admin = plain.withTypeProvider<ZodTypeProvider>();
      const list = { querystring: ListQueryString };

      admin.get(
        "/payout-accounts",
        { schema: { ...list, response: { 200: z.array(AdminPayoutAccountReply) } } },
        async (request, reply) => {
          const page = await listPage(
            reply,
            db,
            accountSpec,
            request.query,
            { select: accountSelect, from: accountFrom, where: accountWhere },
            (r: AccountRaw) => r,
          );
          return accountRecords(page);
        },
      );
      admin.get(
        "/payout-accounts/:id",
        { schema: { params: RecordIdParams, response: { 200: AdminPayoutAccountReply } } },
        async (request) => accountRecord(request.params.id),
      );

      const decide = async (expertId: string, command: PayoutCommand) => {
        await accountRecord(expertId); // Rule: an expert's payouts only; anyone else's id is not found, and nothing is recorded.
        await projected(valueOf(await sendPayoutCommand({ db, payouts }, command, undefined, command.actor)));
        return accountRecord(expertId);
      };
      admin.post(
        "/payout-accounts/:expertId/hold",
        { schema: { params: PayoutExpertParams, body: HoldPayoutsBody, response: { 200: AdminPayoutAccountReply } } },
        async (request) => {
          const { expertId } = request.params;
          const actor = { userId: actorOf(request).userId, role: "admin" as const };
          return decide(expertId, { type: "HoldPayouts", expertId, actor, reason: request.body.reason });
        },
      );
      admin.post(
        "/payout-accounts/:expertId/resume",
        { schema: { params: PayoutExpertParams, response: { 200: AdminPayoutAccountReply } } },
        async (request) => {
          const { expertId } = request.params;
          const actor = { userId: actorOf(request).userId, role: "admin" as const };
          return decide(expertId, { type: "ResumePayouts", expertId, actor });
        },
      );

      const transferNumbers = [
        "paid_cents",
        "refunded_cents",
        "fee_cents",
        "share_cents",
        "transferred_cents",
        "reversed_cents",
        "reversal_owed_cents",
      ];
      admin.get("/transfers", { schema: { ...list, response: { 200: z.array(AdminTransferReply) } } }, async (request, reply) =>
        listPage(reply, db, transferSpec, request.query, { select: transferSelect, from: "payout_bookings b", where: transferWhere }, (r) =>
          jsonRow<AdminTransferReply>(r, transferNumbers),
        ),
      );
      admin.get("/payouts", { schema: { ...list, response: { 200: z.array(AdminPayoutReply) } } }, async (request, reply) =>
        listPage(reply, db, payoutSpec, request.query, { select: payoutSelect, from: "payout_payouts p", where: payoutWhere }, (r) =>
          jsonRow<AdminPayoutReply>(r, ["amount_cents"]),
        ),
      );
    },
    { prefix: "/admin" },
  );
};
