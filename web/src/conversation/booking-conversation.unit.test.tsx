import { act, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Conversation, Message } from "../shared/api-types.ts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { localMoment } from "../shared/local-time.ts";
import { CONVERSATIONS_KEY } from "../shared/query-client.ts";
import { BookingConversation } from "./booking-conversation.tsx";

// Issue 31.3: a booking's conversation as its creator and expert see it on their booking pages.

const ZONE = "Europe/London";
const booking = aBooking({ id: "b1", creator_id: "c1", expert_id: "ux1", creator_name: "Cora Creator", expert_name: "Maya Lind" });
const creator = signedInAs("creator", { id: "c1" });
const expert = signedInAs("expert", { id: "ux1", expert_id: "ux1" });
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

const message = (id: string, role: Message["role"], text: string, sent_at: string): Message => ({
  id,
  by: role === "creator" ? "c1" : "ux1",
  role,
  text,
  sent_at,
});
const thread = (messages: Message[], more: Partial<Conversation> = {}): Conversation => ({
  booking_id: "b1",
  messages,
  unread: 0,
  muted: false,
  open_until: inDays(10),
  ...more,
});
const first = message("m1", "creator", "Hi Maya, can we look at the media kit too?", "2030-03-01T09:00:00.000Z");
const second = message("m2", "expert", "Of course.\nSend it before the session.", "2030-03-01T10:30:00.000Z");

const show = (auth = creator) => renderScreen(<BookingConversation booking={booking} zone={ZONE} />, { auth });
const shownMessages = () =>
  screen
    .getAllByTestId("conversation-message")
    .map((m) => [
      within(m).getByTestId("conversation-message-meta").textContent,
      within(m).getByTestId("conversation-message-text").textContent,
    ]);

describe("a booking's conversation", () => {
  it("shows the thread oldest first, who wrote each message and when in the viewer's zone, and sends { text }", async () => {
    const calls = fakeApi({
      "GET /bookings/b1/messages": { status: 200, body: thread([first, second]) },
      "POST /bookings/b1/messages": (body) => ({
        status: 200,
        body: thread([first, second, message("m3", "creator", (body as { text: string }).text, "2030-03-01T11:00:00.000Z")]),
      }),
    });
    show();
    await screen.findByRole("log", { name: "Messages" });
    expect(shownMessages()).toEqual([
      [`You · ${localMoment(first.sent_at, ZONE)}`, first.text],
      [`Maya Lind · Expert · ${localMoment(second.sent_at, ZONE)}`, second.text],
    ]);
    const box = screen.getByRole("textbox", { name: "Your message" });
    expect(box).toHaveAttribute("maxlength", "2000");
    await userEvent.type(box, "Thanks, see you then!");
    expect(screen.getByText("21 / 2,000 characters")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(screen.getAllByTestId("conversation-message")).toHaveLength(3));
    expect(writes(calls)).toEqual([{ method: "POST", path: "/bookings/b1/messages", body: { text: "Thanks, see you then!" } }]);
    expect(shownMessages()[2]).toEqual([`You · ${localMoment("2030-03-01T11:00:00.000Z", ZONE)}`, "Thanks, see you then!"]);
    expect(box).toHaveValue("");
  });

  it("names the creator to the expert, and marks the thread read once when it shows unread messages", async () => {
    const calls = fakeApi({
      "GET /bookings/b1/messages": { status: 200, body: thread([first], { unread: 1 }) },
      "POST /bookings/b1/messages/read": { status: 200, body: thread([first], { unread: 0 }) },
    });
    show(expert);
    await screen.findByText(first.text);
    expect(shownMessages()[0]![0]).toBe(`Cora Creator · Creator · ${localMoment(first.sent_at, ZONE)}`);
    await waitFor(() => expect(writes(calls)).toEqual([{ method: "POST", path: "/bookings/b1/messages/read", body: undefined }]));
  });

  it("marks a new message read when it arrives while the thread is shown (the live feed refetches the thread)", async () => {
    let current = thread([first]);
    const calls = fakeApi({
      "GET /bookings/b1/messages": () => ({ status: 200, body: current }),
      "POST /bookings/b1/messages/read": () => ({ status: 200, body: (current = { ...current, unread: 0 }) }),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderScreen(
      <QueryClientProvider client={client}>
        <BookingConversation booking={booking} zone={ZONE} />
      </QueryClientProvider>,
      { auth: expert },
    );
    await screen.findByText(first.text);
    expect(writes(calls)).toEqual([]);
    current = thread([first, message("m3", "creator", "One more thing.", "2030-03-01T12:00:00.000Z")], { unread: 1 });
    await act(() => client.invalidateQueries({ queryKey: CONVERSATIONS_KEY }));
    expect(await screen.findByText("One more thing.")).toBeInTheDocument();
    await waitFor(() => expect(writes(calls)).toEqual([{ method: "POST", path: "/bookings/b1/messages/read", body: undefined }]));
  });

  it("does not mark a thread read that has nothing unread", async () => {
    const calls = fakeApi({ "GET /bookings/b1/messages": { status: 200, body: thread([first, second]) } });
    show();
    await screen.findByText(first.text);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes(calls)).toEqual([]);
  });

  it("shows the API's message when a message is refused, and keeps what was written", async () => {
    fakeApi({
      "GET /bookings/b1/messages": { status: 200, body: thread([]) },
      "POST /bookings/b1/messages": { status: 409, body: { code: "conversation_closed", message: "closed" } },
    });
    show();
    expect(await screen.findByText("No messages yet.")).toBeInTheDocument();
    await userEvent.type(screen.getByRole("textbox", { name: "Your message" }), "Still there?");
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This conversation closed 7 days after the session.");
    expect(screen.getByRole("textbox", { name: "Your message" })).toHaveValue("Still there?");
  });

  it("says an empty message is not sent, in the API's words, without asking it", async () => {
    const calls = fakeApi({ "GET /bookings/b1/messages": { status: 200, body: thread([]) } });
    show();
    await userEvent.type(await screen.findByRole("textbox", { name: "Your message" }), "   ");
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please write a message of 1 to 2,000 characters.");
    expect(writes(calls)).toEqual([]);
  });

  it("after open_until, shows the thread with a note that it closed and nothing to write with", async () => {
    const closedAt = inDays(-1);
    fakeApi({ "GET /bookings/b1/messages": { status: 200, body: thread([first], { open_until: closedAt }) } });
    show();
    await screen.findByText(first.text);
    expect(screen.getByTestId("conversation-closed")).toHaveTextContent(`This conversation closed on ${localMoment(closedAt, ZONE)}`);
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Send" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Mute mail for this conversation")).not.toBeInTheDocument();
  });

  it("the mute switch sends { muted } and follows the answer", async () => {
    const calls = fakeApi({
      "GET /bookings/b1/messages": { status: 200, body: thread([first]) },
      "PUT /bookings/b1/messages/mute": (body) => ({ status: 200, body: thread([first], { muted: (body as { muted: boolean }).muted }) }),
    });
    show();
    const mute = await screen.findByLabelText("Mute mail for this conversation");
    expect(mute).not.toBeChecked();
    await userEvent.click(mute);
    await waitFor(() => expect(mute).toBeChecked());
    expect(screen.getByText(/No mail about new messages here/)).toBeInTheDocument();
    await userEvent.click(mute);
    await waitFor(() => expect(mute).not.toBeChecked());
    expect(writes(calls)).toEqual([
      { method: "PUT", path: "/bookings/b1/messages/mute", body: { muted: true } },
      { method: "PUT", path: "/bookings/b1/messages/mute", body: { muted: false } },
    ]);
  });

  it("a refused mute turns the switch back and says why", async () => {
    fakeApi({
      "GET /bookings/b1/messages": { status: 200, body: thread([first]) },
      "PUT /bookings/b1/messages/mute": { status: 404, body: { code: "booking_not_found", message: "x" } },
    });
    show();
    const mute = await screen.findByLabelText("Mute mail for this conversation");
    await userEvent.click(mute);
    expect(await screen.findByRole("alert")).toHaveTextContent("No booking found");
    expect(mute).not.toBeChecked();
  });

  it("an admin reads the thread without writing in it or marking it read", async () => {
    const calls = fakeApi({ "GET /bookings/b1/messages": { status: 200, body: thread([first, second], { unread: 2 }) } });
    show(signedInAs("admin", { id: "a1" }));
    await screen.findByText(first.text);
    expect(shownMessages()[0]![0]).toBe(`Cora Creator · Creator · ${localMoment(first.sent_at, ZONE)}`);
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.getByText("Only the creator and the expert of this booking write here.")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes(calls)).toEqual([]);
  });

  it("says when the thread cannot be loaded, in the API's words", async () => {
    fakeApi({ "GET /bookings/b1/messages": { status: 404, body: { code: "booking_not_found", message: "x" } } });
    show();
    expect(await screen.findByText("The messages could not be loaded: No booking found")).toBeInTheDocument();
  });
});
