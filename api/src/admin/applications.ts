import type pg from "pg";
import { z } from "zod";
import {
  APPLICATION_STATUSES,
  AdminApplicationReply,
  ApplicationAsOfQuery,
  ApplicationDecisionBody,
  ApplicationNoteBody,
  ApplicationReviewBody,
  ExpertStandingReply,
  SuspensionBody,
  SuspensionReply,
  type Actor,
  type ExpertCommand,
} from "@booking/contracts";
import { calendarStream, expertDecider, expertStream } from "@booking/engine";
import type { EventStore } from "@booking/event-store";
import type { CalendarCommands, ExpertCommands } from "../main/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { actorOf, refuse, valueOf } from "../http/index.ts";
import { applicationHistory, applicationReply, expertStanding, stepTime } from "../vetting/index.ts";
import { listPage, ListQueryString, oneOrMany, RecordIdParams, type ListSpec, SqlWhere } from "./list-query.ts";

// The console's review of expert applications (issue 30): the queue from the experts read model (oldest
// submitted first), one application from the expert's stream with its whole history, the review steps and
// decisions as commands on that stream, and suspension, which pauses the expert's calendar as well.

const OPEN = ["submitted", "in_review"] as const;
const ApplicationFilter = z
  .object({
    id: oneOrMany(z.string().min(1).max(300)).optional(),
    status: oneOrMany(z.enum(APPLICATION_STATUSES, { error: "invalid_request" })).optional(),
  })
  .strict();

const spec: ListSpec<typeof ApplicationFilter> = {
  resource: "applications",
  sortable: { applied_at: ["e.applied_at", "e.expert_id"], last_name: ["e.last_name", "e.first_name"], vetting_status: "e.vetting_status" },
  defaultSort: ["applied_at", "ASC"],
  uniqueKey: "e.expert_id",
  filter: ApplicationFilter,
};

const QUEUE_COLUMNS =
  "e.expert_id, e.first_name, e.last_name, e.profile_image, e.vetting_status, e.vetting_revision, e.vetting_reason, e.applied_at";

type QueueRow = {
  expert_id: string;
  first_name: string;
  last_name: string;
  profile_image: string | null;
  vetting_status: (typeof APPLICATION_STATUSES)[number];
  vetting_revision: number;
  vetting_reason: string | null;
  applied_at: Date | null;
};

/** A queue row: what the experts read model holds (the answers and history are on the application's own page). */
const queueRecord = (r: QueueRow): AdminApplicationReply => ({
  id: r.expert_id,
  expert_id: r.expert_id,
  first_name: r.first_name,
  last_name: r.last_name,
  profile_image: r.profile_image,
  status: r.vetting_status,
  revision: Number(r.vetting_revision),
  answers: null,
  reason: r.vetting_reason,
  submitted_at: r.applied_at && r.applied_at.toISOString(),
  may_reapply_from: null,
  standards_version: "",
  history: [],
});

const OPEN_BOOKINGS = `SELECT booking_id AS id, scheduled_time, status, creator_id FROM bookings
  WHERE expert_id = $1 AND status IN ('pending', 'time_proposed', 'more_info_requested', 'confirmed') ORDER BY scheduled_time, booking_id`;

export type ApplicationAdminDeps = {
  db: pg.Pool;
  store: EventStore;
  experts: ExpertCommands;
  calendar: CalendarCommands;
  projected: Projected;
};

export const applicationsAdmin: RoutePlugin<ApplicationAdminDeps> = async (app, { db, store, experts, calendar, projected }) => {
  const asAdmin = (request: Parameters<typeof actorOf>[0]): Actor => ({ userId: actorOf(request).userId, role: "admin" });

  /**
   * One application: the profile's names from the read model, the rest from the expert's stream as it is now or,
   * in time travel, folded by the engine over the steps taken up to `at`.
   */
  const application = async (expertId: string, at?: string): Promise<AdminApplicationReply> => {
    const [{ events: all }, row] = await Promise.all([
      store.readStream(expertStream(expertId)),
      db.query(`SELECT ${QUEUE_COLUMNS} FROM experts e WHERE e.expert_id = $1`, [expertId]),
    ]);
    const profile = row.rows[0] as QueueRow | undefined;
    if (!profile || all.length === 0) return refuse("not_found");
    const events = at === undefined ? all : all.filter((e) => stepTime(e) <= at);
    if (events.length === 0) return refuse("as_of_before_expert");
    const state = expertDecider.evolve(
      expertDecider.initialState(),
      events.map((e) => ({ type: e.type, data: e.data }) as Parameters<typeof expertDecider.evolve>[1][number]),
    );
    return { ...queueRecord(profile), ...applicationReply(state), history: applicationHistory(events, true) };
  };

  const decide = async (request: Parameters<typeof actorOf>[0], expertId: string, command: ExpertCommand) => {
    const actor = asAdmin(request);
    await projected(valueOf(await experts.handle(expertStream(expertId), command, { actor })));
    return application(expertId);
  };

  app.get(
    "/applications",
    { schema: { querystring: ListQueryString, response: { 200: z.array(AdminApplicationReply) } } },
    async (request, reply) =>
      listPage(
        reply,
        db,
        spec,
        request.query,
        {
          select: QUEUE_COLUMNS,
          from: "experts e",
          where: (f) => {
            const w = new SqlWhere();
            if (f.id) w.add(`e.expert_id = ANY(${w.param(f.id)})`);
            // The queue by default: applications waiting for a decision.
            w.add(`e.vetting_status = ANY(${w.param(f.status ?? [...OPEN])})`);
            return w;
          },
        },
        (raw: QueueRow) => queueRecord(raw),
      ),
  );

  app.get("/applications/:id", { schema: { params: RecordIdParams, response: { 200: AdminApplicationReply } } }, async (request) =>
    application(request.params.id),
  );

  // Time travel: the application as it stood at an instant, e.g. just after a step of its history.
  app.get(
    "/applications/:id/as-of",
    { schema: { params: RecordIdParams, querystring: ApplicationAsOfQuery, response: { 200: AdminApplicationReply } } },
    async (request) => application(request.params.id, request.query.at),
  );

  const params = RecordIdParams;
  app.post(
    "/applications/:id/review",
    { schema: { params, body: ApplicationReviewBody, response: { 200: AdminApplicationReply } } },
    (request) =>
      decide(request, request.params.id, {
        type: "StartApplicationReview",
        expertId: request.params.id,
        actor: asAdmin(request),
        seenRevision: request.body.seen_revision,
      }),
  );
  app.post(
    "/applications/:id/notes",
    { schema: { params, body: ApplicationNoteBody, response: { 200: AdminApplicationReply } } },
    (request) =>
      decide(request, request.params.id, {
        type: "NoteApplication",
        expertId: request.params.id,
        actor: asAdmin(request),
        seenRevision: request.body.seen_revision,
        note: request.body.note,
      }),
  );
  app.post(
    "/applications/:id/decision",
    { schema: { params, body: ApplicationDecisionBody, response: { 200: AdminApplicationReply } } },
    (request) => {
      const b = request.body;
      return decide(request, request.params.id, {
        type: "DecideApplication",
        expertId: request.params.id,
        actor: asAdmin(request),
        seenRevision: b.seen_revision,
        decision: b.decision,
        reason: b.reason,
        checklist: b.checklist,
      });
    },
  );

  // Suspension: the calendar is paused first, so no booking request is accepted after the expert's suspension.
  app.post("/experts/:id/suspension", { schema: { params, body: SuspensionBody, response: { 200: SuspensionReply } } }, async (request) => {
    const actor = asAdmin(request);
    const expertId = request.params.id;
    const { state } = await experts.load(expertStream(expertId));
    if (state.kind === "none") refuse("profile_not_found");
    if (state.vetting.status !== "approved") refuse(state.vetting.status === "suspended" ? "expert_suspended" : "expert_not_approved");
    const reason = request.body.reason;
    valueOf(await calendar.handle(calendarStream(expertId), { type: "PauseBookings", expertId, actor, reason }, { actor }));
    const suspended = await experts.handle(expertStream(expertId), { type: "SuspendExpert", expertId, actor, reason }, { actor });
    if (!suspended.ok) {
      // Another decision came first: the calendar follows the expert again.
      await calendar.handle(calendarStream(expertId), { type: "ResumeBookings", expertId, actor }, { actor });
      valueOf(suspended);
    }
    await projected(valueOf(suspended));
    return { status: "suspended" as const, open_bookings: (await db.query(OPEN_BOOKINGS, [expertId])).rows.map(openBooking) };
  });

  app.post(
    "/experts/:id/reinstatement",
    { schema: { params, body: SuspensionBody, response: { 200: SuspensionReply } } },
    async (request) => {
      const actor = asAdmin(request);
      const expertId = request.params.id;
      const reinstated = await experts.handle(
        expertStream(expertId),
        { type: "ReinstateExpert", expertId, actor, reason: request.body.reason },
        { actor },
      );
      // A reinstatement whose calendar step did not run (a crash between the two) is finished by asking again.
      const { state } = await experts.load(expertStream(expertId));
      if (!reinstated.ok && !(state.kind === "profiled" && state.vetting.status === "approved")) valueOf(reinstated);
      valueOf(await calendar.handle(calendarStream(expertId), { type: "ResumeBookings", expertId, actor }, { actor }));
      if (reinstated.ok) await projected(reinstated.value);
      return { status: "approved" as const, open_bookings: [] };
    },
  );

  app.get("/experts/:id/standing", { schema: { params, response: { 200: ExpertStandingReply } } }, async (request) =>
    expertStanding(db, request.params.id),
  );
};

const openBooking = (r: { id: string; scheduled_time: Date; status: string; creator_id: string }) => ({
  id: r.id,
  scheduled_time: r.scheduled_time.toISOString(),
  status: r.status,
  creator_id: r.creator_id,
});
