import type pg from "pg";
import { z } from "zod";
import { MailStatus, MailboxListItem, MailboxMessageReply } from "@booking/contracts";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  containsPattern,
  IdText,
  isoTime,
  listPage,
  ListQueryString,
  type ListSpec,
  oneOrMany,
  RecordIdParams,
  SearchText,
  SqlWhere,
} from "./list-query.ts";

// The dev mailbox: the mail outbox as the console reads it while no SMTP server is configured
// (registered only then), so a developer or a walk opens the verification and reset links that
// would otherwise go out by mail. id = the message id; newest first.

const MailboxFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    /** The recipient's address, exactly (any case). */
    to: z.string().trim().min(1).max(320).optional(),
    kind: oneOrMany(IdText).optional(),
    status: oneOrMany(MailStatus).optional(),
    booking_id: IdText.optional(),
    /** Matches the subject (contains). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof MailboxFilter> = {
  resource: "mailbox",
  sortable: {
    created_at: "m.created_at",
    send_after: "m.send_after",
    sent_at: "m.sent_at",
    to: "m.to_address",
    kind: "m.kind",
    status: "m.status",
    subject: "m.subject",
  },
  defaultSort: ["created_at", "DESC"],
  uniqueKey: "m.message_id",
  filter: MailboxFilter,
};

function mailboxWhere(f: z.output<typeof MailboxFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`m.message_id = ANY(${w.param(f.id)})`);
  if (f.to) w.add(`lower(m.to_address) = lower(${w.param(f.to)})`);
  if (f.kind) w.add(`m.kind = ANY(${w.param(f.kind)})`);
  if (f.status) w.add(`m.status = ANY(${w.param(f.status)})`);
  if (f.booking_id) w.add(`m.booking_id = ${w.param(f.booking_id)}`);
  if (f.q) w.add(`m.subject ILIKE ${w.param(containsPattern(f.q))}`);
  return w;
}

type ListRow = {
  message_id: string;
  kind: string;
  to_address: string;
  subject: string;
  status: MailStatus;
  created_at: Date;
  send_after: Date;
  sent_at: Date | null;
  booking_id: string | null;
  skipped_reason: string | null;
  last_error: string | null;
};

type MessageRow = ListRow & {
  headers: Record<string, string>;
  text_body: string;
  html_body: string;
  attachments: { filename: string; contentType: string }[];
};

const listColumns =
  "m.message_id, m.kind, m.to_address, m.subject, m.status, m.created_at, m.send_after, m.sent_at, m.booking_id, m.skipped_reason, m.last_error";

const listItem = (row: ListRow): MailboxListItem => ({
  id: row.message_id,
  kind: row.kind,
  to: row.to_address,
  subject: row.subject,
  status: row.status,
  created_at: row.created_at.toISOString(),
  send_after: row.send_after.toISOString(),
  sent_at: isoTime(row.sent_at),
  booking_id: row.booking_id,
  note: row.skipped_reason ?? row.last_error,
});

export type MailboxAdminDeps = { db: pg.Pool; /** The From every message goes out with. */ from: string };

export const mailboxAdmin: RoutePlugin<MailboxAdminDeps> = async (app, { db, from }) => {
  app.get("/mailbox", { schema: { querystring: ListQueryString, response: { 200: z.array(MailboxListItem) } } }, async (request, reply) =>
    listPage(reply, db, spec, request.query, { select: listColumns, from: "mail_outbox m", where: mailboxWhere }, listItem),
  );

  app.get("/mailbox/:id", { schema: { params: RecordIdParams, response: { 200: MailboxMessageReply } } }, async (request) => {
    const { rows } = await db.query<MessageRow>(
      `SELECT ${listColumns}, m.headers, m.text_body, m.html_body, m.attachments FROM mail_outbox m WHERE m.message_id = $1`,
      [request.params.id],
    );
    const row = rows[0];
    if (!row) return refuse("not_found");
    return {
      ...listItem(row),
      from,
      headers: row.headers,
      text: row.text_body,
      html: row.html_body,
      attachments: row.attachments.map((a) => ({ filename: a.filename, content_type: a.contentType })),
    };
  });
};
