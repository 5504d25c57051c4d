import type pg from "pg";
import {
  ERASED_FIRST_NAME,
  ERASED_LAST_NAME,
  ERASED_TEXT,
  currentSchemaVersion,
  erasedEmail,
  type Actor,
  type UserEvent,
} from "@booking/contracts";
import { sessionStream } from "@booking/engine";
import type { AppendResult, EventStore } from "@booking/event-store";
import { addressHash, revokeUserSessions, type Account } from "../auth/index.ts";
import type { Projected } from "../http/index.ts";
import { forgetInMail } from "../mail/index.ts";
import type { SessionCommands } from "../main/index.ts";
import { ERASURE_STATEMENTS, boundTo } from "./erasure-sources.ts";

// Erasing an account (issue 33.2), once erasure-rules.ts allowed it. In order:
// 1. an expert's published sessions are unpublished (recorded on their streams), so nobody books someone who is gone;
// 2. in one transaction of the API's tables: every sign-in ends, the API's tables forget them (erasure-sources.ts), the
//    mail records forget them and drop what still waited for them, and UserErased is appended to `user-{id}` before the
//    commit, so a failure leaves neither the tables erased without the event nor the event without the tables;
// 3. their data key is destroyed: from then on each personal field of theirs in any event reads as erased, in every
//    read, rebuild and export; the snapshots that mention them are forgotten (a snapshot is only a shortcut);
// 4. the read models are awaited: the projections rewrite their rows of every stream (projections' erasure.ts).

/** The person's data key (crypto-shredding, issue 33.1): destroyed, everything sealed with it reads as erased. */
export type DataKeys = { erase: (userId: string) => Promise<void> };

export type ErasureDeps = {
  db: pg.Pool;
  store: Pick<EventStore, "append">;
  sessions: SessionCommands;
  projected: Projected;
  clock: () => string;
  /** Null until the event store seals personal data (issue 33.1): the log then keeps their words until a rebuild reads past them. */
  dataKeys: DataKeys | null;
  /** Forgets the snapshots whose stream or state mentions the person (the snapshot store's forgetMentioning); null: none are kept. */
  forgetSnapshots: ((userId: string) => Promise<unknown>) | null;
};

export type ErasedAccount = { userId: string; erasedAt: string };

async function unpublishSessions(deps: ErasureDeps, expertIds: readonly string[], actor: Actor): Promise<void> {
  if (expertIds.length === 0) return;
  const { rows } = await deps.db.query<{ session_id: string; expert_id: string }>(
    "SELECT session_id, expert_id FROM sessions WHERE expert_id = ANY($1) AND status = 'published' AND NOT deleted",
    [expertIds],
  );
  for (const s of rows) {
    const command = { type: "UnpublishSession", sessionId: s.session_id, expertId: s.expert_id, actor } as const;
    const result = await deps.sessions.handle(sessionStream(s.session_id), command, { actor });
    // Deleted meanwhile: not bookable either.
    if (!result.ok && result.refusal.code !== "session_not_found") throw new Error(`unpublishing ${s.session_id}: ${result.refusal.code}`);
  }
}

/**
 * What they wrote that the other party's mails may quote, as the read models hold it before the erasure: messages,
 * prep answers, reviews and replies, their reasons for cancelling, an expert's questions and notes.
 */
async function wordsOf(db: pg.Pool, userId: string, expertIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ words: string | null }>(
    `SELECT text AS words FROM messages WHERE sender_id = $1
     UNION ALL SELECT jsonb_array_elements_text(prep_answers) FROM bookings WHERE creator_id = $1 AND jsonb_typeof(prep_answers) = 'array'
     UNION ALL SELECT cancel_reason FROM bookings
       WHERE (creator_id = $1 AND cancelled_by = 'creator') OR (expert_user_id = $1 AND cancelled_by = 'expert')
     UNION ALL SELECT info_request_note FROM bookings WHERE expert_user_id = $1
     UNION ALL SELECT notes->>'summary' FROM bookings WHERE expert_user_id = $1
     UNION ALL SELECT text FROM reviews WHERE creator_id = $1
     UNION ALL SELECT reply_text FROM reviews WHERE expert_id = ANY($2)`,
    [userId, expertIds],
  );
  return rows.flatMap((r) => (r.words ? [r.words] : []));
}

export async function eraseAccount(
  deps: ErasureDeps,
  account: Account,
  expertIds: readonly string[],
  actor: Actor,
): Promise<ErasedAccount> {
  const { userId } = account;
  await unpublishSessions(deps, expertIds, actor);
  const at = deps.clock();
  const { rows: bookings } = await deps.db.query<{ booking_id: string }>(
    "SELECT booking_id FROM bookings WHERE creator_id = $1 OR expert_user_id = $1",
    [userId],
  );
  const words = await wordsOf(deps.db, userId, expertIds);
  const values = {
    user: userId,
    experts: expertIds,
    email: account.email,
    address_hash: addressHash(account.email),
    erased_email: erasedEmail(userId),
    first: ERASED_FIRST_NAME,
    last: ERASED_LAST_NAME,
    text: ERASED_TEXT,
  };
  const event: UserEvent = { type: "UserErased", data: { userId, at, expertIds: [...expertIds] } };
  let written: AppendResult;
  const client = await deps.db.connect();
  try {
    await client.query("BEGIN");
    // Two erasures of one account (two tabs) wait here; the second finds the account erased.
    await client.query("SELECT 1 FROM accounts WHERE user_id = $1 FOR UPDATE", [userId]);
    await revokeUserSessions(client, userId, at);
    for (const statement of ERASURE_STATEMENTS) await client.query(...boundTo(statement.sql, values));
    written = await deps.store.append(
      `user-${userId}`,
      [{ type: event.type, schemaVersion: currentSchemaVersion(event.type), data: event.data, metadata: { at, actor } }],
      "stream_exists",
    );
    const version = written.events[0]!.version;
    await forgetInMail(
      client,
      { ...account, words },
      bookings.map((b) => b.booking_id),
      version,
    );
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
  // TODO(issue 33.1, crypto-shredding): null until the context carries the data keys; the lead wires ctx.dataKeys here.
  await deps.dataKeys?.erase(userId);
  await deps.forgetSnapshots?.(userId);
  await deps.projected({ events: written.events, version: written.nextVersion, position: written.position, replayed: false });
  return { userId, erasedAt: at };
}
