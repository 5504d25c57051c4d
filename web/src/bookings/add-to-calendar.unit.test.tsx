import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CreatorDashboardPage } from "../creator-dashboard/creator-dashboard-page.tsx";
import { setSession } from "../shared/api-client.ts";
import { AddToCalendarButton } from "./add-to-calendar.tsx";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";

// Issue 17.1: "Add to calendar" fetches the booking's .ics with the session's token and saves it
// as booking-{id}.ics; before confirmation the API's refusal is shown in the catalogue's words.

const ICS = "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:booking-b1@example.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
const auth = signedInAs("creator", { id: "c1" });

/** A saved blob's text: on Node 24 the page's blob may be jsdom's, which has no text(), so it is read as a browser would. */
function textOf(blob: Blob): Promise<string> {
  if (typeof blob.text === "function") return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** What the page handed the browser to save: the anchor's file name and the blob behind its object URL. */
function watchDownloads() {
  const blobs = new Map<string, Blob>();
  const saved: { filename: string; blob: Blob | undefined }[] = [];
  let n = 0;
  // jsdom has no object URLs: a URL class with them, for this test only.
  vi.stubGlobal(
    "URL",
    class extends URL {
      static override createObjectURL(blob: Blob) {
        const href = `blob:test/${++n}`;
        blobs.set(href, blob);
        return href;
      }
      static override revokeObjectURL(href: string) {
        blobs.delete(href);
      }
    },
  );
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ filename: this.download, blob: blobs.get(this.getAttribute("href") ?? "") });
  });
  return saved;
}

beforeEach(() =>
  setSession({
    access_token: "access-1",
    expires_in: 900,
    expires_at: Math.floor(Date.now() / 1000) + 900,
    token_type: "bearer",
    user: { id: "c1", email: "c@example.com", role: "creator", first_name: "C" },
  }),
);
afterEach(() => {
  setSession(null);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("add to calendar", () => {
  it("downloads the booking's invite with the bearer token, as booking-{id}.ics", async () => {
    const saved = watchDownloads();
    const fetchMock = vi.fn(async () => new Response(ICS, { status: 200, headers: { "content-type": "text/calendar; charset=utf-8" } }));
    vi.stubGlobal("fetch", fetchMock);
    renderScreen(<AddToCalendarButton booking={aBooking()} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Add to calendar: Deck review" }));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/v1/bookings/b1/calendar.ics");
    expect(init.headers).toMatchObject({ authorization: "Bearer access-1" });
    expect(saved[0]!.filename).toBe("booking-b1.ics");
    expect(await textOf(saved[0]!.blob!)).toBe(ICS);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says what the API answers when the booking cannot be added, and saves nothing", async () => {
    const saved = watchDownloads();
    fakeApi({ "GET /bookings/b1/calendar.ics": { status: 409, body: { code: "calendar_invite_not_confirmed", message: "x" } } });
    renderScreen(<AddToCalendarButton booking={aBooking()} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Add to calendar: Deck review" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This booking is not confirmed yet, so it cannot be added to a calendar.");
    expect(saved).toHaveLength(0);
  });

  it("is offered on the creator's confirmed bookings only", async () => {
    const later = new Date(Date.now() + 72 * 3_600_000).toISOString();
    fakeApi({
      "GET /bookings/creator/me": {
        status: 200,
        body: [
          aBooking({ id: "ok", scheduled_time: later }),
          aBooking({ id: "wait", scheduled_time: later, status: "pending" }),
          aBooking({ id: "gone", scheduled_time: later, status: "cancelled" }),
        ],
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    await screen.findByRole("heading", { name: "Upcoming" });
    const offered = screen
      .getAllByTestId("creator-booking")
      .filter((card) => within(card).queryByRole("button", { name: /^Add to calendar/ }));
    expect(offered.map((card) => card.getAttribute("data-booking-id"))).toEqual(["ok"]);
  });
});
