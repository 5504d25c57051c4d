import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { resetConsoleAfterEach } from "./console-fakes.ts";
import { OLDEST, openedApplication } from "./vetting-fakes.ts";

// Issue 30: the console's vetting queue lists applications oldest first; an admin opens one, reads its answers
// and links, ticks the checklist and decides with a reason, the decision naming the revision the admin had open.
// When the application changed since, the API refuses it and the admin reads why and reloads.

const CHANGED = "This application changed since you opened it. Please reload.";
const api = vi.hoisted(() => ({ revision: 3, listed: vi.fn(), decided: vi.fn(), noted: vi.fn(), reviewed: vi.fn(), asOf: vi.fn() }));

vi.mock("../src/data-provider.ts", async (original) => {
  const { HttpError } = await import("react-admin");
  const { fakeDataProvider } = await import("./console-fakes.ts");
  const { approvedApplication, openedApplication, queue, queueRow } = await import("./vetting-fakes.ts");
  type Params = { filter: { status?: string }; sort: { field: string; order: "ASC" | "DESC" } };
  /** Like the API: the queue sorted by applied_at (when submitted) only when asked so; one status when filtered. */
  const list = ({ filter, sort }: Params) => {
    const rows = (filter.status === "approved" ? [approvedApplication] : filter.status ? [] : queue).map(queueRow);
    if (sort.field !== "applied_at") return rows;
    const older = (a: (typeof rows)[number], b: (typeof rows)[number]) => (a.submitted_at ?? "").localeCompare(b.submitted_at ?? "");
    return rows.sort((a, b) => (sort.order === "ASC" ? older(a, b) : older(b, a)));
  };
  /** The API's optimistic concurrency: a step on a revision other than the application's now is refused. */
  const step = (seen: number) =>
    seen === api.revision
      ? Promise.resolve({ ...openedApplication, revision: api.revision + 1 })
      : Promise.reject(new HttpError(CHANGED, 409, { code: "application_changed", message: CHANGED }));
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string, params: Params) => {
        if (resource !== "applications") return fakeDataProvider.getList(resource, params as never);
        api.listed(params);
        const data = list(params);
        return Promise.resolve({ data, total: data.length });
      },
      // The experts behind the queue's rows: their profile's title.
      getMany: (resource: string, params: { ids: string[] }) =>
        resource === "experts"
          ? Promise.resolve({ data: params.ids.map((id) => ({ id, title: queue.find((a) => a.id === id)?.answers?.title })) })
          : fakeDataProvider.getMany(resource, params as never),
      getOne: (resource: string, params: { id: string }) =>
        resource === "applications"
          ? Promise.resolve({ data: { ...openedApplication, revision: api.revision } })
          : fakeDataProvider.getOne(resource, params as never),
      decideApplication: (id: string, body: { seen_revision: number }) => {
        api.decided(id, body);
        return step(body.seen_revision);
      },
      noteApplication: (id: string, body: { seen_revision: number }) => {
        api.noted(id, body);
        return step(body.seen_revision);
      },
      startApplicationReview: (id: string, seen: number) => {
        api.reviewed(id, seen);
        return step(seen);
      },
      // Time travel: the application as the API folds it up to the instant, its history cut there.
      applicationAsOf: (id: string, at: string) => {
        api.asOf(id, at);
        const history = openedApplication.history.filter((h) => h.at <= at);
        const reason = history.findLast((h) => h.reason)?.reason ?? null;
        return Promise.resolve({ ...openedApplication, status: "changes_requested", revision: history.length, reason, history });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach(() => {
  api.revision = 3;
  Object.values(api).forEach((fn) => typeof fn === "function" && fn.mockClear());
});

async function openApplication(): Promise<void> {
  window.location.hash = `#/applications/${OLDEST}/show`;
  render(<App />);
  await screen.findByRole("button", { name: "Approve" }, { timeout: 20_000 });
}

/** Decide from the page: the decision's button, a reason typed in its dialog, the dialog's confirmation. */
async function decide(button: string, reason: string, confirm: string): Promise<void> {
  fireEvent.click(screen.getByRole("button", { name: button }));
  const dialog = await screen.findByRole("dialog");
  fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: reason } });
  fireEvent.click(within(dialog).getByRole("button", { name: confirm }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
}

describe("the vetting queue", () => {
  it("lists the applications waiting for a decision, oldest submitted first, with title and status", async () => {
    window.location.hash = "#/applications";
    render(<App />);
    await screen.findByText("Olga Oldest", {}, { timeout: 20_000 });
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getByText(/^(Olga|Mia|Nora) /).textContent)).toEqual(["Olga Oldest", "Mia Middle", "Nora Newest"]);
    // The queue's rows carry no answers: the title is the expert profile's.
    await waitFor(() => expect(rows[0]!.textContent).toContain("Channel strategist"));
    expect(rows[0]!.textContent).toContain("Submitted");
    expect(rows[0]!.textContent).toMatch(/2026/);
    // The queue is the API's default: no status filter sent, and the filter says so.
    expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: {} }));
    expect(screen.getByText("Waiting for a decision")).toBeTruthy();
  }, 60_000);

  it("filters the applications by any status", async () => {
    window.location.hash = "#/applications";
    render(<App />);
    await screen.findByText("Olga Oldest", {}, { timeout: 20_000 });
    fireEvent.mouseDown(screen.getByRole("combobox", { name: /Status/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Approved" }));
    await screen.findByText("Abe Approved", {}, { timeout: 10_000 });
    expect(screen.queryByText("Olga Oldest")).toBeNull();
    expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: { status: "approved" } }));
  }, 60_000);
});

describe("an application's page", () => {
  it("shows the answers, the links opening in a new tab without access to the console, and the standards agreed", async () => {
    await openApplication();
    const answers = screen.getByTestId("application-answers");
    expect(answers.textContent).toContain("YouTube channel growth");
    const link = within(screen.getByTestId("application-links")).getByRole("link", { name: /portfolio\.example\.com/ });
    expect(link.getAttribute("href")).toBe("https://portfolio.example.com/work");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(answers.textContent).toMatch(/standards-2026-11 \(the standards in force\)/);
    expect(screen.getByRole("img", { name: "Profile photo of Olga Oldest" })).toBeTruthy();
  }, 60_000);

  it("shows the history: each decision and note with its admin, reason or note, and checklist", async () => {
    await openApplication();
    const entries = await screen.findAllByTestId("history-entry");
    expect(entries).toHaveLength(5);
    // Newest first: the note, then the review, the resubmission, the request for changes.
    expect(entries[0]!.textContent).toMatch(/^Note on .* by .*Note: Channel checked: 1\.2M subscribers/);
    const changes = entries[3]!;
    expect(changes.textContent).toMatch(/^Changes requested on .*Reason: Please add a link to your channel/);
    await waitFor(() => expect(changes.textContent).toContain("+a@evil.example"));
    const checklist = [...within(changes).getByTestId("history-checklist").children].map((item) => item.textContent);
    expect(checklist).toContain("✓ Identity is plausible");
    expect(checklist).toContain("✗ Links work and are theirs (not ticked)");
  }, 60_000);

  it("time travel: a step of the history shows the application as it stood just after it", async () => {
    await openApplication();
    const changes = (await screen.findAllByTestId("history-entry"))[3]!;
    expect(within(changes).queryByTestId("application-as-of")).toBeNull();
    fireEvent.click(within(changes).getByRole("button", { name: "As it stood then" }));
    const then = await within(changes).findByTestId("application-as-of");
    const at = openedApplication.history[1]!.at;
    expect(api.asOf).toHaveBeenCalledWith(OLDEST, at);
    expect(then.textContent).toContain("As it stood after Changes requested on");
    expect(then.textContent).toContain("StatusChanges requested");
    expect(then.textContent).toContain("Reason givenPlease add a link to your channel");
    expect(then.textContent).toContain("Steps so far2");
    fireEvent.click(within(changes).getByRole("button", { name: "Hide" }));
    await waitFor(() => expect(within(changes).queryByTestId("application-as-of")).toBeNull());
  }, 60_000);

  it("sends a decision with the revision the admin had open, the reason and the checklist as ticked", async () => {
    await openApplication();
    const checklist = screen.getByTestId("vetting-checklist");
    fireEvent.click(within(checklist).getByLabelText("Identity is plausible"));
    fireEvent.click(within(checklist).getByLabelText("Links work and are theirs"));
    fireEvent.click(within(checklist).getByLabelText("Photo is of a person"));
    fireEvent.click(within(checklist).getByLabelText("Photo is of a person"));
    expect(api.decided).not.toHaveBeenCalled();
    await decide("Request changes", "Add your rates", "Request changes");
    await waitFor(() => expect(api.decided).toHaveBeenCalledTimes(1));
    expect(api.decided).toHaveBeenCalledWith(OLDEST, {
      seen_revision: 3,
      decision: "request_changes",
      reason: "Add your rates",
      checklist: { identity_plausible: true, links_work: true, photo_is_person: false },
    });
    expect(await screen.findByText("Olga Oldest is asked for changes.")).toBeTruthy();
  }, 60_000);

  it("shows the API's message when the application changed since it was opened, and decides once reloaded", async () => {
    await openApplication();
    api.revision = 4; // the expert resubmitted, or another admin added a note, while the page was open
    await decide("Approve", "Strong portfolio", "Approve expert");
    expect((await screen.findByTestId("application-changed")).textContent).toContain(CHANGED);
    expect(api.decided).toHaveBeenLastCalledWith(OLDEST, expect.objectContaining({ seen_revision: 3, decision: "approve" }));
    fireEvent.click(within(screen.getByTestId("application-changed")).getByRole("button", { name: "Reload" }));
    await waitFor(() => expect(screen.queryByTestId("application-changed")).toBeNull());
    await decide("Approve", "Strong portfolio", "Approve expert");
    await waitFor(() => expect(api.decided).toHaveBeenCalledTimes(2));
    expect(api.decided).toHaveBeenLastCalledWith(OLDEST, expect.objectContaining({ seen_revision: 4, reason: "Strong portfolio" }));
    expect(await screen.findByText("Olga Oldest is approved.")).toBeTruthy();
    expect(screen.queryByTestId("application-changed")).toBeNull();
  }, 60_000);

  it("adds a note with the revision the admin had open", async () => {
    await openApplication();
    const add = screen.getByRole("button", { name: "Add note" });
    expect((add as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Note \(for admins only\)/), { target: { value: "  Called the references  " } });
    fireEvent.click(add);
    await waitFor(() => expect(api.noted).toHaveBeenCalledWith(OLDEST, { seen_revision: 3, note: "Called the references" }));
    expect(await screen.findByText("Note added.")).toBeTruthy();
  }, 60_000);
});
