import simpleRestProvider from "ra-data-simple-rest";
import { HttpError, fetchUtils, type DataProvider, type SortPayload } from "react-admin";
import { API_ROOT, accessToken, renewedAccessToken } from "./auth-provider.ts";
import type {
  AdminApplicationReply,
  AdminDisputeReply,
  BookingAsOfReply,
  BookingReply,
  CalendarAsOfReply,
  ConversationReply,
  ExpertStandingReply,
  ExpertStatementReply,
  SuspensionReply,
  VettingChecklist,
} from "@booking/contracts";
import { CONSISTENCY_POSITION_HEADER, ClientPositions } from "@booking/contracts";
import type { TestDisputeRequest } from "./disputes/dispute-record.ts";
import type { ProjectionRecord } from "./projections/projection-record.ts";

// ra-data-simple-rest against /api/v1/admin, every request with the admin's bearer token, plus
// the calls that are not CRUD: a resource's CSV export, a read-model rebuild, the time travel, the
// statements, vetting's review steps, suspension and standing (issue 30), no-show decisions (issue 31.1), a
// dispute's evidence and test disputes (issue 31.2), and a booking's conversation (issue 31.3).

export const ADMIN_API = `${API_ROOT}/admin`;

/** A request with the bearer token; a 401 gets one refresh and one retry. Exported for the console's calls outside the data provider. */
export async function withAccessToken<T>(send: (token: string | null) => Promise<T>): Promise<T> {
  const token = await accessToken();
  try {
    return await send(token);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 401 || !token) throw error;
    const renewed = await renewedAccessToken(token);
    if (!renewed || renewed === token) throw error;
    return send(renewed);
  }
}

function authorized(options: fetchUtils.Options, token: string | null): fetchUtils.Options {
  const headers = new Headers(options.headers);
  headers.set("Accept", "application/json");
  if (token) headers.set("Authorization", `Bearer ${token}`);
  for (const [name, value] of Object.entries(positions.headers())) headers.set(name, value);
  return { ...options, headers };
}

/** The newest log position the console's writes were given: its next reads show them (issue 34.1). */
const positions = new ClientPositions();

const httpClient = (url: string, options: fetchUtils.Options = {}) =>
  withAccessToken(async (token) => {
    const reply = await fetchUtils.fetchJson(url, authorized(options, token));
    positions.heard(reply.headers.get(CONSISTENCY_POSITION_HEADER));
    return reply;
  });

/** A non-JSON download, with the same auth and error handling as the JSON calls. */
async function download(url: string): Promise<Blob> {
  return withAccessToken(async (token) => {
    const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      const message =
        typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
          ? body.message
          : response.statusText;
      throw new HttpError(message, response.status, body);
    }
    return response.blob();
  });
}

/** A decision on an application: the revision the admin had open, the decision, its reason and the ticked checklist. */
export type ApplicationDecision = {
  seen_revision: number;
  decision: "approve" | "request_changes" | "reject";
  reason: string;
  checklist: VettingChecklist;
};

/** An admin's decision on a no-show report (issue 31.1): upheld or not, the refund in minor units, the reason both parties read. */
export type NoShowDecision = { upheld: boolean; refund_cents: number; reason: string };

export type ListQuery = { filter: Record<string, unknown>; sort: SortPayload };

export type ConsoleDataProvider = DataProvider & {
  /** The records of `resource` matching `filter`, every one of them (not a page), as CSV (terms acceptances, early access). */
  exportCsv: (resource: string, query: ListQuery) => Promise<Blob>;
  /** Start rebuilding one read model from the event store; its progress is on the projection record. */
  rebuildProjection: (name: string) => Promise<{ data: ProjectionRecord }>;
  /** A booking as it was after one event of its history (by the event's id or log position) or as of an instant. */
  bookingAsOf: (bookingId: string, point: { event_id?: string; position?: string; at?: string }) => Promise<BookingAsOfReply>;
  /** An expert's calendar as it stood at an instant: one local date's bookable times and the times bookings held. */
  calendarAsOf: (expertId: string, query: { at: string; date?: string; length_minutes?: number }) => Promise<CalendarAsOfReply>;
  /** An expert's month from the ledger, per currency (issue 29.5). */
  expertStatement: (expertId: string, month: string) => Promise<ExpertStatementReply>;
  /** The same statement as the expert downloads it, as a PDF or a CSV file. */
  expertStatementFile: (expertId: string, month: string, format: "pdf" | "csv") => Promise<Blob>;
  /** Start reviewing an expert's application (submitted → in review), as of the revision the admin had open. */
  startApplicationReview: (expertId: string, seenRevision: number) => Promise<AdminApplicationReply>;
  /** A reviewer's note on the application, for the console only. */
  noteApplication: (expertId: string, body: { seen_revision: number; note: string }) => Promise<AdminApplicationReply>;
  /** Approve, request changes or reject, with the reason the expert reads and the checklist as ticked. */
  decideApplication: (expertId: string, body: ApplicationDecision) => Promise<AdminApplicationReply>;
  /** Suspend an approved expert: the reply lists their open bookings, which the admin resolves (none is cancelled). */
  suspendExpert: (expertId: string, reason: string) => Promise<SuspensionReply>;
  /** Reinstate a suspended expert. */
  reinstateExpert: (expertId: string, reason: string) => Promise<SuspensionReply>;
  /** The standards the expert keeps: time to answer, acceptance, cancellations, rating. */
  expertStanding: (expertId: string) => Promise<ExpertStandingReply>;
  /** Time travel: the application as it stood at an instant (GET /admin/applications/{id}/as-of). */
  applicationAsOf: (expertId: string, at: string) => Promise<AdminApplicationReply>;
  /** Decide a booking's no-show report (POST /admin/bookings/{id}/no-show/decision); the booking as it ends. */
  decideNoShow: (bookingId: string, body: NoShowDecision) => Promise<BookingReply>;
  /** A dispute's evidence, the booking's history as one PDF to submit to the provider (GET /admin/disputes/{id}/evidence.pdf). */
  disputeEvidence: (disputeId: string) => Promise<Blob>;
  /** Everything the product holds about a user, as one JSON document, produced on their request (GET /admin/users/{id}/export, issue 33.3). */
  userDataExport: (userId: string) => Promise<Blob>;
  /** A booking's conversation, read-only: the parties' route (GET /bookings/{id}/messages), which admins may read. */
  bookingConversation: (bookingId: string) => Promise<ConversationReply>;
  /** Test provider only: open a dispute on a payment as a bank would, or move its test dispute on (won, lost...). */
  openTestDispute: (paymentId: string, body: TestDisputeRequest) => Promise<AdminDisputeReply>;
};

/** A query string of the values given (undefined ones left out). */
const queryOf = (values: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(values).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]))).toString();

const base = simpleRestProvider(ADMIN_API, httpClient);

/** Filters as the API takes them: a cleared multi-select ([]) means no filter, not "none of these". */
function withoutEmptyLists(filter: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter ?? {}).filter(([, value]) => !(Array.isArray(value) && value.length === 0)));
}

/** PUT /admin/experts/{id}'s body: `{ verified, reason }` and nothing else of the record (issue 27.20). */
const vettingOf = (data: Record<string, unknown>) => ({
  verified: data.verified === true,
  reason: typeof data.reason === "string" ? data.reason : "",
});

/** POST a JSON body to an admin path; the reply's JSON. A refusal is an HttpError whose body is the API's `{ code, message }`. */
async function post<T>(path: string, body: object): Promise<T> {
  return (await httpClient(`${ADMIN_API}/${path}`, { method: "POST", body: JSON.stringify(body) })).json as T;
}

const applicationPath = (expertId: string, step: "review" | "notes" | "decision") => `applications/${encodeURIComponent(expertId)}/${step}`;

export const dataProvider: ConsoleDataProvider = {
  ...base,
  getList: (resource, params) => base.getList(resource, { ...params, filter: withoutEmptyLists(params.filter) }),
  getManyReference: (resource, params) => base.getManyReference(resource, { ...params, filter: withoutEmptyLists(params.filter) }),
  // The one change the console makes to an expert is the vetting decision and its reason: send nothing else.
  update: (resource, params) =>
    resource === "experts" ? base.update(resource, { ...params, data: vettingOf(params.data) }) : base.update(resource, params),
  exportCsv: (resource, { filter, sort }) => {
    const query = new URLSearchParams({
      filter: JSON.stringify(withoutEmptyLists(filter)),
      sort: JSON.stringify([sort.field, sort.order]),
    });
    return download(`${ADMIN_API}/${encodeURIComponent(resource)}/export.csv?${query}`);
  },
  rebuildProjection: async (name) => {
    // fetchJson labels every POST as JSON, and the API refuses an empty JSON body: send an empty object.
    const { json } = await httpClient(`${ADMIN_API}/projections/${encodeURIComponent(name)}/rebuild`, { method: "POST", body: "{}" });
    return { data: json as ProjectionRecord };
  },
  bookingAsOf: async (bookingId, point) =>
    (await httpClient(`${ADMIN_API}/bookings/${encodeURIComponent(bookingId)}/as-of?${queryOf(point)}`)).json as BookingAsOfReply,
  calendarAsOf: async (expertId, query) =>
    (await httpClient(`${ADMIN_API}/experts/${encodeURIComponent(expertId)}/calendar/as-of?${queryOf(query)}`)).json as CalendarAsOfReply,
  expertStatement: async (expertId, month) =>
    (await httpClient(`${ADMIN_API}/payout-accounts/${encodeURIComponent(expertId)}/statement?${queryOf({ month })}`))
      .json as ExpertStatementReply,
  expertStatementFile: (expertId, month, format) =>
    download(`${ADMIN_API}/payout-accounts/${encodeURIComponent(expertId)}/statements/${encodeURIComponent(month)}.${format}`),
  startApplicationReview: (expertId, seenRevision) => post(applicationPath(expertId, "review"), { seen_revision: seenRevision }),
  noteApplication: (expertId, body) => post(applicationPath(expertId, "notes"), body),
  decideApplication: (expertId, body) => post(applicationPath(expertId, "decision"), body),
  suspendExpert: (expertId, reason) => post(`experts/${encodeURIComponent(expertId)}/suspension`, { reason }),
  reinstateExpert: (expertId, reason) => post(`experts/${encodeURIComponent(expertId)}/reinstatement`, { reason }),
  expertStanding: async (expertId) =>
    (await httpClient(`${ADMIN_API}/experts/${encodeURIComponent(expertId)}/standing`)).json as ExpertStandingReply,
  applicationAsOf: async (expertId, at) =>
    (await httpClient(`${ADMIN_API}/applications/${encodeURIComponent(expertId)}/as-of?${queryOf({ at })}`)).json as AdminApplicationReply,
  decideNoShow: (bookingId, body) => post(`bookings/${encodeURIComponent(bookingId)}/no-show/decision`, body),
  disputeEvidence: (disputeId) => download(`${ADMIN_API}/disputes/${encodeURIComponent(disputeId)}/evidence.pdf`),
  userDataExport: (userId) => download(`${ADMIN_API}/users/${encodeURIComponent(userId)}/export`),
  openTestDispute: (paymentId, body) => post(`payments/${encodeURIComponent(paymentId)}/test-dispute`, body),
  bookingConversation: async (bookingId) =>
    (await httpClient(`${API_ROOT}/bookings/${encodeURIComponent(bookingId)}/messages`)).json as ConversationReply,
};
