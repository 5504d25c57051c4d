import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Session } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { SessionEditor } from "./edit-session-page.tsx";
import { idealForList, sanitizePrice, sessionBody, shareLine, validateSession, emptySessionForm } from "./session-form.ts";

const auth = signedInAs("expert");
const saved: Session = {
  id: "s-1",
  expert_id: "expert-1",
  title: "Deck review",
  description: "",
  price: 150,
  length_minutes: 60,
  prep_question_1: "Goal?",
  prep_question_2: null,
  prep_question_3: null,
  prep_questions: ["Goal?"],
  session_details: "",
  ideal_for: [],
  instant_booking: false,
  currency: "USD",
  full_refund_hours: 24,
  reschedule_hours: 24,
  status: "draft",
  expert: { id: "expert-1", name: "Maya Lind", first_name: "Maya" },
};

describe("edit session", () => {
  it("shows the validation messages of an unsaved session, which offers no Publish until saved and no Delete", async () => {
    const calls = fakeApi({});
    renderScreen(<SessionEditor session={null} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    expect(screen.getByText("Please enter a session title.")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid price of at least $1, in dollars and cents.")).toBeInTheDocument();
    expect(screen.getByText("Add between one and three session questions.")).toBeInTheDocument();
    // Issue 27.19: Publish was enabled and then refused; Delete showed on a form with nothing to delete.
    expect(screen.getByRole("button", { name: "Publish Session" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Publish Session" })).toHaveAccessibleDescription(
      "Save the session first; then you can publish it.",
    );
    expect(screen.queryByRole("button", { name: "Delete Session" })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it("clears a message as soon as its field is fixed, and shows one on change once a field has been touched", async () => {
    fakeApi({});
    renderScreen(<SessionEditor session={null} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    await userEvent.type(screen.getByLabelText(/Session Title/), "Deck review");
    expect(screen.queryByText("Please enter a session title.")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Session Price/), "150");
    expect(screen.queryByText("Please enter a valid price of at least $1, in dollars and cents.")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Question 1"), "Goal?");
    expect(screen.queryByText("Add between one and three session questions.")).not.toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/Session Title/));
    expect(screen.getByText("Please enter a session title.")).toBeInTheDocument();
  });

  it("says nothing about a field before it is touched, then follows its changes", async () => {
    fakeApi({});
    renderScreen(<SessionEditor session={null} />, { auth });
    const title = screen.getByLabelText(/Session Title/);
    await userEvent.click(title);
    expect(screen.queryByText("Please enter a session title.")).not.toBeInTheDocument();
    await userEvent.tab();
    expect(screen.getByText("Please enter a session title.")).toBeInTheDocument();
    await userEvent.type(title, "T");
    expect(screen.queryByText("Please enter a session title.")).not.toBeInTheDocument();
  });

  it("keeps only digits and dots in the price, offers 30/60/90/120 minutes (30 first), and 1 to 3 questions", async () => {
    renderScreen(<SessionEditor session={null} />, { auth });
    const price = screen.getByLabelText(/Session Price/);
    await userEvent.type(price, "1a2$.5x");
    expect(price).toHaveValue("12.5");
    const length = screen.getByLabelText("Session Length") as HTMLSelectElement;
    expect([...length.options].map((o) => o.value)).toEqual(["30", "60", "90", "120"]);
    expect(length.value).toBe("30");
    expect(screen.getByRole("button", { name: "Remove question 1" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Add Question" }));
    await userEvent.click(screen.getByRole("button", { name: "Add Question" }));
    expect(screen.getByLabelText("Question 3")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add Question" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove question 1" })).toBeEnabled();
  });

  it("shows the server's message when a save is refused", async () => {
    fakeApi({ "PUT /sessions/s-1": { status: 403, body: { code: "not_session_owner", message: "x" } } });
    renderScreen(<SessionEditor session={saved} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Only the session's expert can change it.");
  });

  it("publishes a saved session with a status-only update", async () => {
    const calls = fakeApi({ "PUT /sessions/s-1": { status: 200, body: { session: { ...saved, status: "published" } } } });
    renderScreen(<SessionEditor session={saved} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Publish Session" }));
    expect(await screen.findByText("Session published successfully!")).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({ status: "published" });
    await waitFor(() => expect(screen.getByRole("button", { name: "Unpublish Session" })).toBeInTheDocument());
    expect(screen.getByTestId("session-status")).toHaveTextContent("Live");
  });

  it("offers instant booking with what it means, and saves the expert's choice (issue 27.6)", async () => {
    const calls = fakeApi({ "PUT /sessions/s-1": { status: 200, body: { session: { ...saved, instant_booking: true } } } });
    renderScreen(<SessionEditor session={saved} />, { auth });
    const toggle = screen.getByRole("switch", { name: "Instant booking" });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(
      "Bookings are confirmed as soon as the creator pays; otherwise you have 48 hours to accept each request.",
    );
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ instant_booking: true });
  });

  it("shows a session's instant booking as it was saved", () => {
    renderScreen(<SessionEditor session={{ ...saved, instant_booking: true }} />, { auth });
    expect(screen.getByRole("switch", { name: "Instant booking" })).toBeChecked();
  });

  it("offers the contract's cut-offs, 24/24 for a new session, and sends the chosen ones (issue 31.4)", async () => {
    const calls = fakeApi({ "PUT /sessions/s-1": { status: 200, body: { session: saved } } });
    renderScreen(<SessionEditor session={null} />, { auth });
    const refund = screen.getByLabelText("Full refund if cancelled at least") as HTMLSelectElement;
    const move = screen.getByLabelText("Creators can ask to move it until") as HTMLSelectElement;
    expect([...refund.options].map((o) => o.textContent)).toEqual([
      "24 hours before the start",
      "48 hours before the start",
      "72 hours before the start",
    ]);
    expect([...move.options].map((o) => o.value)).toEqual(["12", "24", "48"]);
    expect([refund.value, move.value]).toEqual(["24", "24"]);
    const help = "Applies to new bookings; bookings already made keep the terms they were made under.";
    expect(refund).toHaveAccessibleDescription(help);
    expect(move).toHaveAccessibleDescription(help);
    cleanup();

    renderScreen(<SessionEditor session={{ ...saved, full_refund_hours: 72, reschedule_hours: 48 }} />, { auth });
    expect(screen.getByLabelText("Full refund if cancelled at least")).toHaveValue("72");
    expect(screen.getByLabelText("Creators can ask to move it until")).toHaveValue("48");
    await userEvent.selectOptions(screen.getByLabelText("Full refund if cancelled at least"), "48");
    await userEvent.selectOptions(screen.getByLabelText("Creators can ask to move it until"), "12");
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ full_refund_hours: 48, reschedule_hours: 12 });
  });

  it("a new session sends the default cut-offs", async () => {
    const calls = fakeApi({ "POST /sessions": { status: 201, body: { session: saved } } });
    renderScreen(<SessionEditor session={null} />, { auth });
    await userEvent.type(screen.getByLabelText(/Session Title/), "Deck review");
    await userEvent.type(screen.getByLabelText(/Session Price/), "150");
    await userEvent.type(screen.getByLabelText("Question 1"), "Goal?");
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: "POST", body: { full_refund_hours: 24, reschedule_hours: 24 } });
  });

  it("rules", () => {
    expect(sanitizePrice("$1,000.50")).toBe("1000.50");
    expect(idealForList(" podcasters, ,makers ,")).toEqual(["podcasters", "makers"]);
    expect(validateSession({ ...emptySessionForm(), title: "T", price: "1", questions: ["Q"], length_minutes: 45 })).toEqual({
      length: "Please choose a valid session length.",
    });
    expect(sessionBody({ ...emptySessionForm(), title: " T ", price: "10", questions: ["", "Q2"], ideal_for: "a, b" })).toMatchObject({
      title: "T",
      price: 10,
      prep_question_1: "Q2",
      prep_question_2: null,
      ideal_for: ["a", "b"],
    });
  });
  it("refuses a price below $1 or with fractions of a cent, as the server would", () => {
    const form = { ...emptySessionForm(), title: "Deck review", questions: ["Goal?"] };
    for (const price of ["0", "0.001", "0.99", "10.005", "-5", "abc"])
      expect(validateSession({ ...form, price }).price, price).toBe("Please enter a valid price of at least $1, in dollars and cents.");
    for (const price of ["1", "10.5", "150"]) expect(validateSession({ ...form, price }).price, price).toBeUndefined();
  });

  it("shows what the expert receives of the price and names the fee before publishing, in the chosen currency (issue 29.1)", async () => {
    renderScreen(<SessionEditor session={null} />, { auth });
    const currency = screen.getByLabelText("Currency") as HTMLSelectElement;
    expect([...currency.options].map((o) => o.value)).toEqual(["USD", "EUR", "GBP", "CAD", "AUD"]);
    expect(currency.value).toBe("USD");
    const price = screen.getByLabelText(/Session Price \(USD\)/);
    await userEvent.type(price, "150");
    expect(price).toHaveAccessibleDescription("You receive $127.50 of $150. Platform fee 15 %: $22.50.");
    await userEvent.selectOptions(currency, "EUR");
    expect(screen.getByLabelText(/Session Price \(EUR\)/)).toHaveAccessibleDescription(
      "You receive €127.50 of €150. Platform fee 15 %: €22.50.",
    );
    expect(screen.getByText("€")).toBeInTheDocument();
  });

  it("sends the chosen currency with the session, and a session saved in one shows it", async () => {
    const calls = fakeApi({ "PUT /sessions/s-1": { status: 200, body: { session: saved } } });
    renderScreen(<SessionEditor session={{ ...saved, currency: "GBP" } as Session} />, { auth });
    expect(screen.getByLabelText("Currency")).toHaveValue("GBP");
    expect(screen.getByLabelText(/Session Price \(GBP\)/)).toHaveAccessibleDescription(
      "You receive £127.50 of £150. Platform fee 15 %: £22.50.",
    );
    await userEvent.selectOptions(screen.getByLabelText("Currency"), "CAD");
    await userEvent.click(screen.getByRole("button", { name: "Save Session" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ price: 150, currency: "CAD" });
  });

  it("currency rules: US dollars need not be said, unless the session is changing back to them; the share follows the fee", () => {
    const form = { ...emptySessionForm(), title: "T", price: "150", questions: ["Q"] };
    expect(sessionBody(form)).not.toHaveProperty("currency");
    expect(sessionBody({ ...form, currency: "AUD" })).toMatchObject({ currency: "AUD" });
    expect(sessionBody(form, "EUR")).toMatchObject({ currency: "USD" });
    expect(shareLine({ price: "", currency: "USD" })).toBeNull();
    expect(shareLine({ price: "99.99", currency: "USD" })).toBe("You receive $84.99 of $99.99. Platform fee 15 %: $15.");
    expect(shareLine({ price: "100", currency: "USD" }, 1000)).toBe("You receive $90 of $100. Platform fee 10 %: $10.");
  });
});
