import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";
import { LATER, LOST, SOON, UNDISPUTED_BOOKING, UNDISPUTED_PAYMENT, laterDispute, soonDispute } from "./dispute-fakes.ts";

// Issue 31.2: the console lists the open disputes, the soonest evidence deadline first; a dispute's page shows what
// the provider reported, warns when the money had already been refunded, says what a lost one took back, downloads
// the evidence as a PDF and shows the booking's history; a booking's page lists its disputes and, paid with the test
// provider, opens a test dispute (the API's refusal shown as it words it).

const REFUNDED_IN_FULL = "This booking was refunded in full: a bank would have nothing to take back.";
const api = vi.hoisted(() => ({ listed: vi.fn(), evidence: vi.fn(), tested: vi.fn(), refuse: false }));

vi.mock("../src/data-provider.ts", async (original) => {
  const { HttpError } = await import("react-admin");
  const { fakeDataProvider, hostileRecord } = await import("./console-fakes.ts");
  const { disputeRows, disputedBookingFields } = await import("./dispute-fakes.ts");
  type Row = (typeof disputeRows)[number];
  type Params = { filter: { open?: boolean; status?: string[] }; sort: { field: keyof Row; order: "ASC" | "DESC" } };
  /** Like the API: open or closed, the statuses asked for, sorted as asked. */
  const list = ({ filter, sort }: Params) => {
    const rows = disputeRows.filter(
      (r) =>
        (filter.open === undefined || (r.closed_at === null) === filter.open) &&
        (!filter.status?.length || filter.status.includes(r.status)),
    );
    const sign = sort.order === "ASC" ? 1 : -1;
    return rows.sort((a, b) => sign * String(a[sort.field]).localeCompare(String(b[sort.field])));
  };
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string, params: Params) => {
        if (resource !== "disputes") return fakeDataProvider.getList(resource, params as never);
        api.listed(params);
        const data = list(params);
        return Promise.resolve({ data, total: data.length });
      },
      getOne: (resource: string, params: { id: string }) => {
        if (resource === "disputes") return Promise.resolve({ data: disputeRows.find((r) => r.id === params.id) });
        const data = { ...hostileRecord(resource, params.id), timeline: [] };
        const more = resource === "bookings" ? disputedBookingFields(params.id) : null;
        return Promise.resolve({ data: { ...data, ...more } });
      },
      disputeEvidence: (disputeId: string) => {
        api.evidence(disputeId);
        return Promise.resolve(new Blob(["%PDF-1.7"], { type: "application/pdf" }));
      },
      openTestDispute: (paymentId: string, body: { status: string }) => {
        api.tested(paymentId, body);
        const refusal = { code: "dispute_booking_refunded", message: REFUNDED_IN_FULL };
        return api.refuse
          ? Promise.reject(new HttpError(REFUNDED_IN_FULL, 409, refusal))
          : Promise.resolve({ ...disputeRows[0], status: body.status });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

const { createObjectURL, revokeObjectURL } = URL;

resetConsoleAfterEach(() => {
  api.refuse = false;
  api.listed.mockClear();
  api.evidence.mockClear();
  api.tested.mockClear();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  vi.restoreAllMocks();
});

const text = (element: Element | null) => (element?.textContent ?? "").replace(/\s/g, " ");

/** The list's rows (the header left out), each row's text. */
const rowTexts = () => screen.getAllByRole("row").slice(1).map(text);

async function open(hash: string, loaded: string): Promise<void> {
  window.location.hash = hash;
  render(<App />);
  await screen.findAllByText(loaded, {}, { timeout: 20_000 });
}

/** Choose `option` in the select named `name`. */
async function choose(name: RegExp, option: string): Promise<void> {
  fireEvent.mouseDown(screen.getByRole("combobox", { name }));
  fireEvent.click(await screen.findByRole("option", { name: option }));
}

describe("the disputes list", () => {
  it("opens on the open disputes, the soonest evidence deadline first, with the time left or overdue", async () => {
    await open("#/disputes", "Thumbnail teardown");
    expect(api.listed).toHaveBeenLastCalledWith(
      expect.objectContaining({ filter: { open: true }, sort: { field: "evidence_due_by", order: "ASC" } }),
    );
    const rows = rowTexts();
    expect(rows.map((r) => r.match(/^(Sponsorship pricing|Thumbnail teardown|Channel audit)/)?.[1])).toEqual([
      "Sponsorship pricing",
      "Thumbnail teardown",
      "Channel audit",
    ]);
    expect(rows[0]).toMatch(/USD 50\.00.*Product not received.*Needs a response.* · overdue/);
    expect(rows[1]).toMatch(/ · in 3 days/);
    expect(rows[2]).toMatch(/EUR 40\.00.*Credit not processed.*Under review.* · in 9 days/);
    expect(screen.queryByText("Retention deep dive")).toBeNull();
    const link = screen.getByRole("link", { name: "Booking: Thumbnail teardown" });
    expect(link.getAttribute("href")).toBe(`#/bookings/${soonDispute.booking_id}/show`);
  }, 60_000);

  it("shows the closed disputes too once asked, and filters by status", async () => {
    await open("#/disputes", "Thumbnail teardown");
    await choose(/Open or closed/, "Any");
    await screen.findByText("Retention deep dive", {}, { timeout: 10_000 });
    expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: {} }));
    expect(rowTexts().find((r) => r.startsWith("Retention deep dive"))).toMatch(/Lost.* · closed/);
    await choose(/Status/, "Lost");
    fireEvent.keyDown(screen.getByRole("listbox"), { key: "Escape" });
    await waitFor(() => expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: { status: ["lost"] } })));
    await waitFor(() => expect(rowTexts()).toHaveLength(1));
    expect(rowTexts()[0]).toMatch(/^Retention deep dive/);
  }, 60_000);
});

describe("a dispute's page", () => {
  it("warns that the booking had already been refunded, and shows the booking's history", async () => {
    await open(`#/disputes/${LATER}/show`, "Channel audit");
    const warning = await screen.findByTestId("dispute-refunded-before");
    expect(text(warning)).toBe("This booking had already been refunded EUR 10.00 when the dispute opened: submit the refund as evidence.");
    const timeline = await screen.findByTestId("booking-timeline", {}, { timeout: 10_000 });
    expect([...timeline.querySelectorAll("[data-testid=timeline-entry]")].map((e) => e.getAttribute("data-type"))).toEqual([
      "BookingRequested",
      "PaymentSucceeded",
    ]);
    expect(screen.queryByText(/taken back/)).toBeNull();
    // A real provider's dispute: no test action.
    expect(screen.queryByTestId("test-dispute-form")).toBeNull();
  }, 60_000);

  it("says what a lost dispute took back, and has no refund warning when nothing was refunded", async () => {
    await open(`#/disputes/${LOST}/show`, "Retention deep dive");
    expect(await screen.findByText("USD 40.00 taken back, of USD 50.00 disputed: the rest had already been owed back")).toBeTruthy();
    expect(screen.getByTestId("dispute-lost")).toBeTruthy();
    expect(screen.queryByTestId("dispute-refunded-before")).toBeNull();
  }, 60_000);

  it("downloads the evidence of this dispute as a PDF", async () => {
    const saved: { name: string; blob: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    URL.createObjectURL = (blob: Blob) => {
      blobs.set("blob:evidence", blob);
      return "blob:evidence";
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      const blob = blobs.get(this.getAttribute("href") ?? "");
      if (blob) saved.push({ name: this.download, blob });
    });
    await open(`#/disputes/${LATER}/show`, "Channel audit");
    fireEvent.click(screen.getByRole("button", { name: "Download evidence (PDF)" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(api.evidence.mock.calls).toEqual([[LATER]]);
    expect(saved[0]!.name).toBe(`dispute-${LATER}-evidence.pdf`);
    expect(saved[0]!.blob.type).toBe("application/pdf");
  }, 60_000);

  it("moves a test dispute on: the new status for the same payment, the disputed amount", async () => {
    await open(`#/disputes/${SOON}/show`, "Thumbnail teardown");
    const form = await screen.findByTestId("test-dispute-form", {}, { timeout: 10_000 });
    expect(within(form).queryByRole("combobox", { name: /Reason/ })).toBeNull();
    await choose(/New status/, "Lost");
    fireEvent.click(within(form).getByRole("button", { name: "Record the new status" }));
    await waitFor(() => expect(api.tested).toHaveBeenCalledTimes(1));
    expect(api.tested).toHaveBeenCalledWith("pi_test_soon", { status: "lost", amount_cents: 5000 });
    expect(await screen.findByText("The test dispute is recorded: Lost.")).toBeTruthy();
  }, 60_000);
});

describe("a booking's page", () => {
  it("lists the booking's disputes with their status, amount, deadline and a link to each", async () => {
    await open(`#/bookings/${laterDispute.booking_id}/show`, "Channel audit");
    const table = await screen.findByTestId("booking-disputes", {}, { timeout: 10_000 });
    const row = text(table.querySelector("tbody tr"));
    expect(row).toMatch(/^Under review.*EUR 40\.00.*Credit not processed.* · in 9 days/);
    expect(within(table).getByRole("link", { name: "Open the dispute" }).getAttribute("href")).toBe(`#/disputes/${LATER}/show`);
    // Paid with a real provider: no test dispute to open.
    expect(screen.queryByRole("button", { name: "Open a test dispute" })).toBeNull();
  }, 60_000);

  it("opens a test dispute on the booking's test payment with the reason, status and amount chosen", async () => {
    await open(`#/bookings/${UNDISPUTED_BOOKING}/show`, "Open a test dispute");
    expect(screen.queryByTestId("booking-disputes")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Open a test dispute" }));
    const form = await screen.findByTestId("test-dispute-form");
    await choose(/Reason/, "Product not received");
    await choose(/^Status/, "Under review");
    fireEvent.change(within(form).getByRole("textbox", { name: /Amount \(USD\)/ }), { target: { value: "25" } });
    fireEvent.click(within(form).getByRole("button", { name: "Open test dispute" }));
    await waitFor(() => expect(api.tested).toHaveBeenCalledTimes(1));
    expect(api.tested).toHaveBeenCalledWith(UNDISPUTED_PAYMENT, {
      status: "under_review",
      reason: "product_not_received",
      amount_cents: 2500,
    });
    expect(await screen.findByText("The test dispute is recorded: Under review.")).toBeTruthy();
  }, 60_000);

  it("sends no amount when none is typed, and shows the API's message when it refuses", async () => {
    await open(`#/bookings/${UNDISPUTED_BOOKING}/show`, "Open a test dispute");
    api.refuse = true;
    fireEvent.click(screen.getByRole("button", { name: "Open a test dispute" }));
    const form = await screen.findByTestId("test-dispute-form");
    fireEvent.change(within(form).getByRole("textbox", { name: /Amount/ }), { target: { value: "0" } });
    const send = within(form).getByRole("button", { name: "Open test dispute" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(within(form).getByRole("textbox", { name: /Amount/ }), { target: { value: "" } });
    fireEvent.click(send);
    const refused = await screen.findByTestId("test-dispute-refused");
    expect(text(refused)).toBe(REFUNDED_IN_FULL);
    expect(api.tested).toHaveBeenCalledWith(UNDISPUTED_PAYMENT, { status: "needs_response", reason: "general" });
    expect(screen.queryByText(/The test dispute is recorded/)).toBeNull();
  }, 60_000);
});
