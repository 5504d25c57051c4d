import { z } from "zod";
import { ReconciliationDifferenceKind, ReconciliationDifferenceReply, ReconciliationRunReply } from "@booking/contracts";
import { IdText, listPage, ListQueryString, oneOrMany, SqlWhere, type ListSpec } from "../admin/index.ts";
import { refuse, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { latestRun } from "./runs-table.ts";
import { LedgerMissing, runReconciliation, type ReconciliationDeps } from "./run.ts";

// The console's reconciliation (issue 29.6): the latest run's differences as a react-admin list
// (ra-data-simple-rest: an array and Content-Range; the run itself in X-Reconciliation-* headers,
// and on every record), and a run on demand.

export type ReconciliationRouteDeps = ReconciliationDeps;

const DifferenceFilter = z
  .object({
    run_id: IdText.optional(),
    kind: oneOrMany(ReconciliationDifferenceKind).optional(),
    movement: oneOrMany(z.string().max(20)).optional(),
  })
  .strict();

const spec: ListSpec<typeof DifferenceFilter> = {
  resource: "reconciliation",
  sortable: { id: "d.n", n: "d.n", kind: "d.kind", movement: "d.movement", ref: "d.ref" },
  defaultSort: ["n", "ASC"],
  uniqueKey: "d.n",
  filter: DifferenceFilter,
};

type DifferenceRow = {
  run_id: string;
  run_at: Date;
  n: number;
  kind: ReconciliationDifferenceKind;
  movement: ReconciliationDifferenceReply["movement"];
  ref: string;
  currency: string | null;
  ledger_cents: string | null;
  provider_cents: string | null;
  what: string;
};

const differenceReply = (r: DifferenceRow): ReconciliationDifferenceReply => ({
  id: `${r.run_id}/${r.n}`,
  run_id: r.run_id,
  run_at: r.run_at.toISOString(),
  n: r.n,
  kind: r.kind,
  movement: r.movement,
  ref: r.ref,
  currency: r.currency,
  ledger_cents: r.ledger_cents === null ? null : Number(r.ledger_cents),
  provider_cents: r.provider_cents === null ? null : Number(r.provider_cents),
  what: r.what,
});

const RUN_HEADERS = ["X-Reconciliation-Run", "X-Reconciliation-At", "X-Reconciliation-Complete", "X-Reconciliation-Differences"];

export const reconciliationRoutes: RoutePlugin<ReconciliationRouteDeps> = async (app, deps) => {
  const { db } = deps;
  app.get(
    "/admin/reconciliation",
    {
      onRequest: requireActor("admin"),
      schema: { querystring: ListQueryString, response: { 200: z.array(ReconciliationDifferenceReply) } },
    },
    async (request, reply) => {
      const latest = await latestRun(db);
      const records = await listPage(
        reply,
        db,
        spec,
        request.query,
        {
          select: "d.run_id, r.at AS run_at, d.n, d.kind, d.movement, d.ref, d.currency, d.ledger_cents, d.provider_cents, d.what",
          from: "reconciliation_differences d JOIN reconciliation_runs r ON r.run_id = d.run_id",
          where: (f) => {
            const w = new SqlWhere();
            // The latest run unless another is asked for; before any run, nothing.
            w.add(`d.run_id = ${w.param(f.run_id ?? latest?.runId ?? "")}`);
            if (f.kind) w.add(`d.kind = ANY(${w.param(f.kind)})`);
            if (f.movement) w.add(`d.movement = ANY(${w.param(f.movement)})`);
            return w;
          },
        },
        differenceReply,
      );
      if (latest)
        void reply
          .header(RUN_HEADERS[0]!, latest.runId)
          .header(RUN_HEADERS[1]!, latest.at)
          .header(RUN_HEADERS[2]!, String(latest.complete))
          .header(RUN_HEADERS[3]!, String(latest.differenceCount));
      void reply.header("Access-Control-Expose-Headers", ["Content-Range", ...RUN_HEADERS].join(", "));
      return records;
    },
  );

  app.post(
    "/admin/reconciliation/run",
    { onRequest: requireActor("admin"), schema: { response: { 201: ReconciliationRunReply } } },
    async (_request, reply) => {
      let run;
      try {
        run = await runReconciliation(deps, "admin");
      } catch (e) {
        if (e instanceof LedgerMissing) refuse("not_found");
        throw e;
      }
      return reply.status(201).send({
        run_id: run.runId,
        at: run.at,
        provider: run.provider,
        by: run.by,
        complete: run.complete,
        note: run.note,
        ledger_count: run.ledgerCount,
        provider_count: run.providerCount,
        difference_count: run.differences.length,
        differences: run.differences.map((d, i) =>
          differenceReply({
            run_id: run.runId,
            run_at: new Date(run.at),
            n: i + 1,
            kind: d.kind,
            movement: d.movement,
            ref: d.ref,
            currency: d.currency,
            ledger_cents: d.ledgerCents === null ? null : String(d.ledgerCents),
            provider_cents: d.providerCents === null ? null : String(d.providerCents),
            what: d.what,
          }),
        ),
      });
    },
  );
};
