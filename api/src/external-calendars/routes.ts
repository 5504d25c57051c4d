import { randomUUID } from "node:crypto";
import {
  CalendarConnectionParams,
  CalendarConnectionReply,
  CalendarConnectionsReply,
  ConnectCalendarBody,
  ExpertIdParams,
  MAX_CALENDAR_CONNECTIONS,
  NoContent,
  UpdateCalendarConnectionBody,
  type BookingInExternalBusyReply,
  type Refusal,
} from "@booking/contracts";
import { bookingsInExternalBusy, calendarStream } from "@booking/engine";
import { Refused, actorOf, commandActor, refuse, requireActor, requireCurrentTerms, requireOwnExpert } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import type { TermsCommands } from "../main/index.ts";
import { CalDavRefused, calDavAccount } from "./caldav-account.ts";
import { CalendarFetchRefused } from "./calendar-fetch.ts";
import {
  connectionOf,
  connectionsOf,
  countConnections,
  deleteConnection,
  insertConnection,
  leaseConnections,
  setAllDayBlocks,
  setBlockingCalendars,
  setBookingsCalendar,
  type ConnectionWithCalendars,
} from "./connections-table.ts";
import { SYNC_LEASE_MS } from "./sweeper.ts";
import { clearConnection, syncConnection, type CalendarSyncDeps } from "./sync.ts";
import { queueUpcomingBookings } from "./writes-table.ts";

// The Schedule tab's "Calendars" (issue 32): connect an iCal address or a CalDAV account, choose which
// calendars block and which receives bookings, read now, disconnect. Connecting reads the calendar at
// once and is refused, with the reason, when it cannot be read: nothing is kept of a failed connect.
// Replies never carry the secret address or the password.

export type ExternalCalendarRouteDeps = CalendarSyncDeps & { terms: TermsCommands };

export const connectionReply = (c: ConnectionWithCalendars): CalendarConnectionReply => ({
  id: c.connection_id,
  kind: c.kind,
  label: c.label,
  all_day_blocks: c.all_day_blocks,
  created_at: c.created_at,
  last_synced_at: c.last_synced_at,
  last_error: c.last_error,
  next_sync_at: c.next_sync_at,
  calendars: c.calendars.map((k) => ({
    id: k.calendar_id,
    name: k.name,
    blocks: k.blocks,
    receives_bookings: k.receives_bookings,
    busy_count: k.blocks ? k.busy_count : 0,
  })),
});

const hostOf = (url: string) => new URL(url).host;

export const externalCalendarRoutes: RoutePlugin<ExternalCalendarRouteDeps> = async (app, deps) => {
  const { db, calendar, box, fetch, clock } = deps;

  async function ownExpert(request: Parameters<typeof actorOf>[0] & { params: { expertId: string } }) {
    const actor = actorOf(request);
    requireOwnExpert(actor, request.params.expertId);
    await requireCurrentTerms(deps, actor);
    return { expertId: request.params.expertId, actor: commandActor(actor) };
  }

  async function found(expertId: string, connectionId: string): Promise<ConnectionWithCalendars> {
    return (await connectionOf(db, expertId, connectionId)) ?? refuse("calendar_connection_not_found");
  }

  /** Read a connection now unless a read is already in flight (that one's outcome will show); resolves to its refusal, if any. */
  async function readNow(connectionId: string): Promise<Refusal | null> {
    const now = clock();
    const [taken] = await leaseConnections(db, now, new Date(Date.parse(now) + SYNC_LEASE_MS).toISOString(), { connectionId });
    return taken ? syncConnection(deps, taken) : null;
  }

  async function affectedBookings(expertId: string): Promise<BookingInExternalBusyReply[]> {
    const { state } = await calendar.load(calendarStream(expertId));
    return bookingsInExternalBusy(state, clock()).map(({ booking: b, sourceIds }) => ({
      booking_id: b.bookingId,
      status: b.status,
      scheduled_time: b.scheduledTime,
      length_minutes: b.lengthMinutes,
      session_title: b.sessionTitle,
      creator_id: b.creatorId,
      calendar_ids: sourceIds,
    }));
  }

  /** What a CalDAV account holds, or the catalogue's reason it cannot be read. */
  async function calDavCalendars(serverUrl: string, username: string, password: string) {
    try {
      return await calDavAccount({ serverUrl, username, password }, fetch).calendars();
    } catch (e) {
      if (e instanceof CalDavRefused || e instanceof CalendarFetchRefused) refuse(e.code);
      throw e;
    }
  }

  app.get(
    "/experts/:expertId/calendars",
    { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, response: { 200: CalendarConnectionsReply } } },
    async (request) => {
      const { expertId } = await ownExpert(request);
      return { connections: (await connectionsOf(db, expertId)).map(connectionReply), affected_bookings: await affectedBookings(expertId) };
    },
  );

  app.post(
    "/experts/:expertId/calendars",
    {
      onRequest: requireActor("expert"),
      schema: { params: ExpertIdParams, body: ConnectCalendarBody, response: { 201: CalendarConnectionReply } },
    },
    async (request, reply) => {
      const { expertId, actor } = await ownExpert(request);
      // Read in the expert's zone: only a schedule names it.
      if (!(await calendar.load(calendarStream(expertId))).state.schedule) refuse("calendar_schedule_first");
      if ((await countConnections(db, expertId)) >= MAX_CALENDAR_CONNECTIONS)
        refuse("calendar_connection_limit", { max: String(MAX_CALENDAR_CONNECTIONS) });
      const body = request.body;
      const now = clock();
      const connectionId = randomUUID();
      const common = {
        connection_id: connectionId,
        expert_id: expertId,
        all_day_blocks: body.all_day_blocks,
        created_at: now,
        next_sync_at: now,
      };
      const inserted =
        body.kind === "ics"
          ? await insertConnection(
              db,
              {
                ...common,
                kind: "ics",
                label: hostOf(body.url),
                sealed_secret: box.seal(body.url),
                source_fingerprint: box.fingerprint(`ics ${body.url}`),
              },
              [{ calendar_id: randomUUID(), name: hostOf(body.url), url: null, blocks: true }],
            )
          : await insertConnection(
              db,
              {
                ...common,
                kind: "caldav",
                label: `${body.username}@${hostOf(body.server_url)}`,
                sealed_secret: box.seal(JSON.stringify({ serverUrl: body.server_url, username: body.username, password: body.password })),
                source_fingerprint: box.fingerprint(`caldav ${body.server_url} ${body.username}`),
              },
              (await calDavCalendars(body.server_url, body.username, body.password))
                .filter((k) => k.events)
                .map((k) => ({ calendar_id: randomUUID(), name: k.name, url: k.url, blocks: true })),
            );
      if (inserted === "already_connected") refuse("calendar_already_connected");
      const refused = await readNow(connectionId);
      if (refused) {
        // A connect that cannot be read keeps nothing: no secret, no busy times.
        await clearConnection(deps, await found(expertId, connectionId), actor);
        await deleteConnection(db, expertId, connectionId);
        throw new Refused(refused);
      }
      return reply.status(201).send(connectionReply(await found(expertId, connectionId)));
    },
  );

  app.patch(
    "/experts/:expertId/calendars/:connectionId",
    {
      onRequest: requireActor("expert"),
      schema: { params: CalendarConnectionParams, body: UpdateCalendarConnectionBody, response: { 200: CalendarConnectionReply } },
    },
    async (request) => {
      const { expertId } = await ownExpert(request);
      const { connectionId } = request.params;
      const c = await found(expertId, connectionId);
      const { all_day_blocks, blocking_calendar_ids, bookings_calendar_id } = request.body;
      const ours = new Set(c.calendars.map((k) => k.calendar_id));
      if (blocking_calendar_ids?.some((id) => !ours.has(id))) refuse("calendar_not_in_connection");
      if (bookings_calendar_id) {
        if (!ours.has(bookings_calendar_id)) refuse("calendar_not_in_connection");
        if (c.kind !== "caldav") refuse("calendar_cannot_receive_bookings");
      }
      if (all_day_blocks !== undefined) await setAllDayBlocks(db, connectionId, all_day_blocks);
      if (blocking_calendar_ids) await setBlockingCalendars(db, connectionId, blocking_calendar_ids);
      if (bookings_calendar_id !== undefined) {
        const current = c.calendars.find((k) => k.receives_bookings)?.calendar_id ?? null;
        if (bookings_calendar_id !== null || current !== null) await setBookingsCalendar(db, expertId, bookings_calendar_id);
        // The upcoming confirmed bookings go into the newly chosen calendar too, not only those confirmed from now on.
        if (bookings_calendar_id) await queueUpcomingBookings(db, expertId, clock());
      }
      // What blocks changed: read again now, so availability follows at once (a read in flight will pick it up
      // instead). A read that fails shows in the reply's last_error; the choice is kept all the same.
      if (all_day_blocks !== undefined || blocking_calendar_ids) await readNow(connectionId);
      return connectionReply(await found(expertId, connectionId));
    },
  );

  app.post(
    "/experts/:expertId/calendars/:connectionId/sync",
    { onRequest: requireActor("expert"), schema: { params: CalendarConnectionParams, response: { 200: CalendarConnectionReply } } },
    async (request) => {
      const { expertId } = await ownExpert(request);
      await found(expertId, request.params.connectionId);
      // The outcome, good or bad, is in the reply's last_synced_at and last_error.
      await readNow(request.params.connectionId);
      return connectionReply(await found(expertId, request.params.connectionId));
    },
  );

  app.delete(
    "/experts/:expertId/calendars/:connectionId",
    { onRequest: requireActor("expert"), schema: { params: CalendarConnectionParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { expertId, actor } = await ownExpert(request);
      const c = await found(expertId, request.params.connectionId);
      const refused = await clearConnection(deps, c, actor);
      if (refused) throw new Refused(refused);
      await deleteConnection(db, expertId, c.connection_id);
      return reply.status(204).send(null);
    },
  );
};
