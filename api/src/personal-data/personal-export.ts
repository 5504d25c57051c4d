import type pg from "pg";
import type { PersonalExportReply } from "@booking/contracts";
import type { EventStore } from "@booking/event-store";
import { expertStream, termsStream } from "@booking/engine";
import { EXPORT_SOURCES } from "./export-sources.ts";

// Everything the product holds about one person as one JSON document (issue 33.3; GDPR articles 15
// and 20): each read model's rows about them (export-sources.ts), and the events of the streams that
// are theirs alone (their user, terms and expert profile). Bookings' streams also hold the other
// party's words, so a booking is exported as the read model shows it to both, not as raw events.

export type PersonalExport = PersonalExportReply;

/** The statement with each :name it uses numbered ($1, $2…) in order of first use, and the values to match. */
function boundTo(sql: string, values: Record<string, unknown>): [string, unknown[]] {
  const names: string[] = [];
  const text = sql.replace(/:(user|experts|bookings)\b/g, (_whole, name: string) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return [text, names.map((name) => values[name])];
}

export async function personalExport(
  db: pg.Pool,
  store: Pick<EventStore, "readStream">,
  userId: string,
  now: string,
): Promise<PersonalExport> {
  const expertIds = (await db.query<{ expert_id: string }>(`SELECT expert_id FROM experts WHERE user_id = $1`, [userId])).rows.map(
    (r) => r.expert_id,
  );
  const bookingIds = (
    await db.query<{ booking_id: string }>(`SELECT booking_id FROM bookings WHERE creator_id = $1 OR expert_user_id = $1`, [userId])
  ).rows.map((r) => r.booking_id);
  const sections: PersonalExport["sections"] = {};
  const values = { user: userId, experts: expertIds, bookings: bookingIds };
  for (const source of EXPORT_SOURCES) {
    const { rows } = await db.query<Record<string, unknown>>(...boundTo(source.sql, values));
    sections[source.name] = { about: source.about, rows };
  }
  const streams = [`user-${userId}`, termsStream(userId), ...expertIds.map(expertStream)];
  const events: PersonalExport["events"] = [];
  for (const stream of streams) {
    const { events: read } = await store.readStream(stream);
    for (const e of read) events.push({ stream, version: e.version, type: e.type, recorded_at: e.recordedAt, data: e.data });
  }
  return { format: "expert-sessions-export/1", user_id: userId, exported_at: now, sections, events };
}
