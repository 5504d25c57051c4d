import { act, render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StaticAuthProvider } from "./auth.tsx";
import { BookingUpdates } from "./realtime.tsx";
import { signedInAs } from "../../test/screen-harness.tsx";

// Issue 26.12: the server keeps at most five live streams per user and ends the oldest with
// `event: replaced`. A replaced tab must not reconnect at once, or a user's open tabs would take
// turns pushing each other off every two seconds; it reconnects when it is looked at again.

vi.mock("./api-client.ts", () => ({ API_BASE: "/api/v1", getSession: () => ({ access_token: "token" }) }));

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  closed = false;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, ((event: { data?: string }) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data?: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data?: unknown) {
    for (const l of this.listeners.get(type) ?? []) l({ data: data === undefined ? undefined : JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  FakeEventSource.opened = [];
});

async function openUpdates(client = new QueryClient()) {
  vi.stubGlobal("EventSource", FakeEventSource);
  render(
    <QueryClientProvider client={client}>
      <StaticAuthProvider value={signedInAs("creator")}>
        <BookingUpdates />
      </StaticAuthProvider>
    </QueryClientProvider>,
  );
  await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
  vi.useFakeTimers();
  return FakeEventSource.opened[0]!;
}

describe("live booking updates", () => {
  it("reconnect 2 s after the stream fails", async () => {
    const first = await openUpdates();
    act(() => first.onerror?.());
    expect(first.closed).toBe(true);
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect(FakeEventSource.opened).toHaveLength(2);
  });

  it("stay off once another tab took the stream's place, until this tab is looked at again", async () => {
    const first = await openUpdates();
    act(() => {
      first.emit("replaced");
      first.onerror?.(); // the server then ends the response
    });
    expect(first.closed).toBe(true);
    await act(async () => vi.advanceTimersByTimeAsync(60_000));
    expect(FakeEventSource.opened).toHaveLength(1);
    act(() => void document.dispatchEvent(new Event("visibilitychange")));
    expect(FakeEventSource.opened).toHaveLength(2);
  });

  // Issue 31.3: a conversation's change refreshes the threads and unread counts; reading or muting leaves bookings be.
  it("a message refreshes the conversations and the bookings; a read or a mute only the conversations", async () => {
    const client = new QueryClient();
    const invalidated = vi.spyOn(client, "invalidateQueries");
    const source = await openUpdates(client);
    const keys = () => invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    act(() => source.emit("booking", { bookingId: "b1", status: "confirmed", type: "ConversationRead" }));
    expect(keys()).toEqual(['["conversations"]']);
    invalidated.mockClear();
    act(() => source.emit("booking", { bookingId: "b1", status: "confirmed", type: "ConversationMuted" }));
    expect(keys()).toEqual(['["conversations"]']);
    invalidated.mockClear();
    act(() => source.emit("booking", { bookingId: "b1", status: "more_info_requested", type: "MessageSent" }));
    expect(keys()).toEqual(expect.arrayContaining(['["conversations"]', '["bookings"]']));
    invalidated.mockClear();
    act(() => source.emit("booking", { bookingId: "b1", status: "confirmed", type: "BookingConfirmed" }));
    expect(keys()).toEqual(expect.arrayContaining(['["conversations"]', '["bookings"]', '["availability"]']));
  });
});
