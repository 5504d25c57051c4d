import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { EarlyAccessBody } from "@booking/contracts";

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
