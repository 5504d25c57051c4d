import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import type { CalDavServer } from "@booking/testkit";
import { calDavAccount } from "../../api/src/external-calendars/caldav-account.ts";

// The expert's own calendars for the calendar walk (issue 32): a secret iCal address served by a local
// server with one busy time, and the Work calendar of a real CalDAV account (radicale) with another;
// then what the product wrote into the account's Bookings calendar, read back from the server.

export type OwnCalendars = {
  /** host:port pairs the product may read over plain http: the iCal server's and the CalDAV server's. */
  plainHosts: string[];
  icsUrl: string;
  /** The part of the address that is its key: never shown once connected. */
  icsSecret: string;
  /** How the connection is labelled: the address's host. */
  icsLabel: string;
  /** The booking's entry in the Bookings calendar: its start (UTC ISO), or null when there is none. */
  bookingEntryStart(bookingId: string): Promise<string | null>;
  /** Whether the expert chose a calendar to receive bookings (the choice is saved). */
  bookingsCalendarChosen(db: pg.Pool, expertId: string): Promise<boolean>;
  stop(): Promise<void>;
};

const stamp = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");
const vcalendar = (uid: string, [start, end]: [string, string], title: string) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Walk//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    `SUMMARY:${title}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");

/** `icsBusy` and `workBusy`: [start, end) instants of the one busy time each calendar holds. */
export async function expertsOwnCalendars(
  caldav: CalDavServer | null,
  busy: { icsBusy: [string, string]; workBusy: [string, string] },
): Promise<OwnCalendars> {
  const icsSecret = `private-${Math.random().toString(36).slice(2)}`;
  const server: Server = createServer((request, response) => {
    if (request.url !== `/calendar/${icsSecret}/basic.ics`) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/calendar" }).end(vcalendar("walk-dentist", busy.icsBusy, "Dentist"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const icsHost = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account =
    caldav && calDavAccount({ serverUrl: caldav.url, username: caldav.username, password: caldav.password }, globalThis.fetch);
  const calendarNamed = async (name: string) => (await account!.calendars()).find((k) => k.name === name)!.url;
  if (account)
    await account.putEvent(await calendarNamed("Work"), "walk-team-call.ics", vcalendar("walk-team-call", busy.workBusy, "Team call"));
  return {
    plainHosts: [icsHost, ...(caldav ? [new URL(caldav.url).host] : [])],
    icsUrl: `http://${icsHost}/calendar/${icsSecret}/basic.ics`,
    icsSecret,
    icsLabel: icsHost,
    async bookingEntryStart(bookingId) {
      const texts = await account!.objectsBetween(
        await calendarNamed("Bookings"),
        new Date(Date.now() - 86_400_000).toISOString(),
        new Date(Date.now() + 40 * 86_400_000).toISOString(),
      );
      const entry = texts.map((t) => t.replace(/\r?\n[ \t]/g, "")).find((t) => t.includes(`UID:booking-${bookingId}@`));
      const start = entry && /^DTSTART:(\d{8}T\d{6}Z)\r?$/m.exec(entry)?.[1];
      return start
        ? `${start.slice(0, 4)}-${start.slice(4, 6)}-${start.slice(6, 8)}T${start.slice(9, 11)}:${start.slice(11, 13)}:${start.slice(13, 15)}.000Z`
        : null;
    },
    async bookingsCalendarChosen(db, expertId) {
      const { rows } = await db.query(
        `SELECT 1 FROM external_calendars k JOIN calendar_connections c USING (connection_id) WHERE c.expert_id = $1 AND k.receives_bookings`,
        [expertId],
      );
      return rows.length > 0;
    },
    async stop() {
      server.close();
      await caldav?.stop();
    },
  };
}
