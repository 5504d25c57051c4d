import { randomUUID } from "node:crypto";
import type pg from "pg";
import { inTransaction } from "@booking/projections";
import type { EarlyAccessBody, EarlyAccessEarlierVersion, EarlyAccessRequestRecord } from "@booking/contracts";

// The early_access_requests table (schema.ts): its row is contracts' EarlyAccessRequestRecord.
// Anyone who knows an address can send the form for it, and the answer never tells whether it
// asked before; so a later request is shown in place of the earlier one but never erases it: the
// versions it replaced stay beside it (early_access_earlier_versions), for the console to show.

/**
 * Earlier versions kept per address: the first request and the newest after it. Bounded, so that
 * sending the form over and over for an address cannot grow the table without end; the first is
 * kept, so that it cannot push the owner's own request out either.
 */
export const EARLIER_VERSIONS_KEPT = 20;

type Latest = { id: string; name: string; role: string; need: string; updated_at: Date };

/**
 * Keep a visitor's request. A new address gets its row; an address that asked before has its row
 * show this request (name, role, need, updated_at; created_at stays) and the request it replaces
 * kept as an earlier version. The same request sent again adds no version.
 */
export async function saveEarlyAccessRequest(db: pg.Pool, request: EarlyAccessBody, at: string): Promise<void> {
  await inTransaction(db, async (client) => {
    // A racing first request for the same address commits or rolls back before this returns.
    const inserted = await client.query(
      `INSERT INTO early_access_requests (id, email, name, role, need, created_at, updated_at) VALUES ($1, $2, ` +
        `$3, $4, $5, $6, $6) ON CONFLICT (email) DO NOTHING`,
      [randomUUID(), request.email, request.name, request.role, request.need, at],
    );
    if (inserted.rowCount === 0) await replaceRequest(client, request, at);
  });
}

/** Under the row's lock, so two requests for one address keep both versions. */
async function replaceRequest(client: pg.PoolClient, request: EarlyAccessBody, at: string): Promise<void> {
  const { rows } = await client.query<Latest>(
    "SELECT id, name, role, need, updated_at FROM early_access_requests WHERE email = $1 FOR UPDATE",
    [request.email],
  );
  const latest = rows[0]!;
  const same = latest.name === request.name && latest.role === request.role && latest.need === request.need;
  if (!same) {
    await client.query(
      "INSERT INTO early_access_earlier_versions (request_id, name, role, need, asked_at, replaced_at) VALUES ($1, $2, $3, $4, $5, $6)",
      [latest.id, latest.name, latest.role, latest.need, latest.updated_at, at],
    );
    // The first version and the newest ones stay.
    await client.query(
      `DELETE FROM early_access_earlier_versions v
        WHERE v.request_id = $1
          AND v.id <> (SELECT min(id) FROM early_access_earlier_versions WHERE request_id = $1)
          AND v.id NOT IN (SELECT id FROM early_access_earlier_versions WHERE request_id = $1 ORDER BY id DESC LIMIT $2)`,
      [latest.id, EARLIER_VERSIONS_KEPT - 1],
    );
  }
  await client.query("UPDATE early_access_requests SET name = $2, role = $3, need = $4, updated_at = $5 WHERE id = $1", [
    latest.id,
    request.name,
    request.role,
    request.need,
    at,
  ]);
}

/** Every column, over the alias `r`, and the earlier versions (newest first) as JSON. */
export const earlyAccessSelectList = `r.id, r.name, r.email, r.role, r.need, r.created_at, r.updated_at,
  COALESCE((SELECT json_agg(json_build_object('name', v.name, 'role', v.role, 'need', v.need, 'asked_at', v.asked_at) ORDER BY v.id DESC)
              FROM early_access_earlier_versions v WHERE v.request_id = r.id), '[]'::json) AS earlier`;

type EarlyAccessPgRow = Omit<EarlyAccessRequestRecord, "created_at" | "updated_at"> & { created_at: Date; updated_at: Date };

/** A row as pg returns it (times as Dates; the versions' times as Postgres writes them in JSON), in the record's JSON shape. */
export function earlyAccessRequestFromPg(raw: Record<string, unknown>): EarlyAccessRequestRecord {
  const r = raw as EarlyAccessPgRow;
  const earlier = (r.earlier ?? []).map((v: EarlyAccessEarlierVersion) => ({ ...v, asked_at: new Date(v.asked_at).toISOString() }));
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    need: r.need,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    earlier,
  };
}

/** The admin list's sort whitelist, as SQL over `r`. */
export const earlyAccessListSort: Record<string, string> = {
  id: "r.id",
  name: "lower(r.name)",
  email: "r.email",
  role: "r.role",
  created_at: "r.created_at",
  updated_at: "r.updated_at",
};
