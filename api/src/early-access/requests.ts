import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { EarlyAccessBody, EarlyAccessRequestRecord } from "@booking/contracts";

// The early_access_requests table (schema.ts): its row is contracts' EarlyAccessRequestRecord.

/**
 * Keep a visitor's request. An address that asked before has its request replaced (name, role,
 * need, updated_at; created_at stays): one row per address, never a duplicate.
 */
export async function saveEarlyAccessRequest(db: pg.Pool, request: EarlyAccessBody, at: string): Promise<void> {
  await db.query(
    `INSERT INTO early_access_requests (id, email, name, role, need, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (email) DO UPDATE SET name = EXCLUDED.name, role = EXCLUDED.role, need = EXCLUDED.need, updated_at = EXCLUDED.updated_at`,
    [randomUUID(), request.email, request.name, request.role, request.need, at],
  );
}

/** Every column, over the alias `r`. */
export const earlyAccessSelectList = "r.id, r.name, r.email, r.role, r.need, r.created_at, r.updated_at";

type EarlyAccessPgRow = Omit<EarlyAccessRequestRecord, "created_at" | "updated_at"> & { created_at: Date; updated_at: Date };

/** A row as pg returns it (times as Dates), in the record's JSON shape. */
export function earlyAccessRequestFromPg(raw: Record<string, unknown>): EarlyAccessRequestRecord {
  const r = raw as EarlyAccessPgRow;
  return { id: r.id, name: r.name, email: r.email, role: r.role, need: r.need, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() };
}

/** The admin list's sort whitelist, as SQL over `r`. */
export const earlyAccessListSort: Record<string, string> = { id: "r.id", name: "lower(r.name)", email: "r.email", role: "r.role", created_at: "r.created_at", updated_at: "r.updated_at" };
