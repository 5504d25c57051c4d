import type { FastifyReply } from "fastify";
import type pg from "pg";
import { z } from "zod";
import { Id, StatementMonthsReply } from "@booking/contracts";
import { findExpert, findUser } from "@booking/projections";
import { actorOf, requireActor, requireExpertAccount } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { personName } from "../receipts/index.ts";
import { statementCsv } from "./statement-csv.ts";
import { moneyMoments, statementMonths } from "./statement-months.ts";
import { statementPdf } from "./statement-pdf.ts";
import { statementOf } from "./statement.ts";

// An expert's monthly statement (issue 29.7), as PDF or CSV: the signed-in expert's own, and any
// expert's for an admin (beside the console's payout accounts).

export type StatementRouteDeps = {
  /** The ledger, bookings, users and experts read models. */
  db: pg.Pool;
  clock: () => string;
};

/** `2026-11.pdf` or `2026-11.csv`. */
const StatementFile = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])\.(pdf|csv)$/, { error: "invalid_request" });
const MyStatementParams = z.strictObject({ file: StatementFile });
const ExpertStatementParams = z.strictObject({ expertId: Id, file: StatementFile });

async function expertName(db: pg.Pool, expertId: string): Promise<string> {
  const user = await findUser(db, expertId);
  if (user) return personName(user.first_name, user.last_name, "Expert");
  const expert = await findExpert(db, expertId);
  return personName(expert?.first_name, expert?.last_name, "Expert");
}

async function sendStatement(deps: StatementRouteDeps, reply: FastifyReply, expertId: string, file: string) {
  const [month, format] = file.split(".") as [string, "pdf" | "csv"];
  const statement = await statementOf(deps.db, expertId, month);
  void reply
    .header("content-disposition", `attachment; filename="statement-${month}.${format}"`)
    .header("cache-control", "private, no-store");
  if (format === "csv") return reply.type("text/csv; charset=utf-8").send(statementCsv(statement));
  return reply.type("application/pdf").send(await statementPdf(statement, await expertName(deps.db, expertId), deps.clock()));
}

export const statementRoutes: RoutePlugin<StatementRouteDeps> = async (app, deps) => {
  app.get(
    "/experts/me/statements",
    { onRequest: requireExpertAccount, schema: { response: { 200: StatementMonthsReply } } },
    async (request) => ({ months: statementMonths(await moneyMoments(deps.db, actorOf(request).userId), deps.clock()) }),
  );

  app.get(
    "/experts/me/statements/:file",
    { onRequest: requireExpertAccount, schema: { params: MyStatementParams } },
    async (request, reply) => sendStatement(deps, reply, actorOf(request).userId, request.params.file),
  );

  app.get(
    "/admin/payout-accounts/:expertId/statements/:file",
    { onRequest: requireActor("admin"), schema: { params: ExpertStatementParams } },
    async (request, reply) => sendStatement(deps, reply, request.params.expertId, request.params.file),
  );
};
