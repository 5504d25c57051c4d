import { useCallback, type InputHTMLAttributes } from "react";
import { queryOptions, useQueryClient } from "@tanstack/react-query";
import type { ConnectCalendarBody, UpdateCalendarConnectionBody } from "@booking/contracts";
import { api } from "../shared/api-client.ts";
import type { CalendarConnection, CalendarConnections } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";

// The expert's own calendars (issue 32): the list, the calls that change it, and the words the screens use.

/** The connections and the bookings inside their busy times; under the schedule's key, so every schedule change refreshes them. */
export const calendarsQuery = (expertId: string) =>
  queryOptions({
    queryKey: ["schedule", expertId, "calendars"],
    queryFn: ({ signal }) => api.get<CalendarConnections>(`/experts/${expertId}/calendars`, { signal }),
    staleTime: 0,
  });

const connectionPath = (expertId: string, connectionId: string) => `/experts/${expertId}/calendars/${encodeURIComponent(connectionId)}`;

export const calendarCalls = {
  connect: (expertId: string, body: ConnectCalendarBody) => api.post<CalendarConnection>(`/experts/${expertId}/calendars`, body),
  update: (expertId: string, connectionId: string, body: UpdateCalendarConnectionBody) =>
    api.patch<CalendarConnection>(connectionPath(expertId, connectionId), body),
  sync: (expertId: string, connectionId: string) => api.post<CalendarConnection>(`${connectionPath(expertId, connectionId)}/sync`),
  disconnect: (expertId: string, connectionId: string) => api.delete<void>(connectionPath(expertId, connectionId)),
};

/** What changed: a connection's reply to put in the list at once, or the one disconnected. */
export type CalendarsChange = { reply: CalendarConnection } | { removed: string };

/**
 * After a change: the list takes the change at once, then it (with the bookings in busy times), the schedule and
 * every availability are read again, as the other Schedule sections do. Choosing the calendar that receives
 * bookings unsets it on the other connections server-side, so the refetch matters there too.
 */
export function useCalendarsChanged(expertId: string): (change?: CalendarsChange) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (change?: CalendarsChange) => {
      if (change)
        queryClient.setQueryData(calendarsQuery(expertId).queryKey, (list) =>
          list
            ? {
                ...list,
                connections:
                  "reply" in change
                    ? withConnection(list.connections, change.reply)
                    : list.connections.filter((c) => c.id !== change.removed),
              }
            : list,
        );
      void queryClient.invalidateQueries({ queryKey: ["schedule", expertId] });
      void queryClient.invalidateQueries({ queryKey: ["availability"] });
    },
    [queryClient, expertId],
  );
}

/** The list with `reply` in place of the connection of the same id, or added at the end. */
export function withConnection(connections: CalendarConnection[], reply: CalendarConnection): CalendarConnection[] {
  return connections.some((c) => c.id === reply.id) ? connections.map((c) => (c.id === reply.id ? reply : c)) : [...connections, reply];
}

/** A test id on the input of a Checkbox or Radio (their input slot's type has no data attributes). */
export const inputTestId = (id: string) => ({ "data-testid": id }) as InputHTMLAttributes<HTMLInputElement>;

// ---- words ---------------------------------------------------------------------------------

export const KIND_LABEL: Record<CalendarConnection["kind"], string> = { ics: "iCal address", caldav: "CalDAV" };

/** Busy times are read for the booking window: the next four weeks. */
export function busyCountText(count: number): string {
  if (count === 0) return "No busy times in the next 4 weeks";
  return `${count.toLocaleString(viewerLocale())} busy ${count === 1 ? "time" : "times"} in the next 4 weeks`;
}

const MINUTE_MS = 60_000;

/** "Last synced just now", "Last synced 5 minutes ago", then the moment in the expert's zone after a day; "Not synced yet". */
export function lastSyncedText(iso: string | null, zone: string, now = Date.now()): string {
  if (!iso) return "Not synced yet";
  const minutes = Math.floor((now - Date.parse(iso)) / MINUTE_MS);
  if (minutes < 1) return "Last synced just now";
  const relative = new Intl.RelativeTimeFormat(viewerLocale(), { numeric: "auto" });
  if (minutes < 60) return `Last synced ${relative.format(-minutes, "minute")}`;
  if (minutes < 24 * 60) return `Last synced ${relative.format(-Math.floor(minutes / 60), "hour")}`;
  return `Last synced ${localMoment(iso, zone)}`;
}

// ---- the connect form ------------------------------------------------------------------------

export type ConnectForm = {
  kind: CalendarConnection["kind"];
  url: string;
  serverUrl: string;
  username: string;
  password: string;
  allDayBlocks: boolean;
};
export type ConnectFormErrors = Partial<Record<"url" | "serverUrl" | "username" | "password", string>>;

export const emptyConnectForm = (kind: ConnectForm["kind"] = "ics"): ConnectForm => ({
  kind,
  url: "",
  serverUrl: "",
  username: "",
  password: "",
  allDayBlocks: false,
});

/** Only what is missing; whether an address is valid and reachable is the server's to say, in the catalogue's words. */
export function connectErrors(form: ConnectForm): ConnectFormErrors {
  const errors: ConnectFormErrors = {};
  if (form.kind === "ics") {
    if (!form.url.trim()) errors.url = "Please enter your calendar's secret address.";
    return errors;
  }
  if (!form.serverUrl.trim()) errors.serverUrl = "Please enter the CalDAV server's address.";
  if (!form.username.trim()) errors.username = "Please enter your user name.";
  if (!form.password) errors.password = "Please enter an app password.";
  return errors;
}

export function connectBody(form: ConnectForm): ConnectCalendarBody {
  return form.kind === "ics"
    ? { kind: "ics", url: form.url.trim(), all_day_blocks: form.allDayBlocks }
    : {
        kind: "caldav",
        server_url: form.serverUrl.trim(),
        username: form.username.trim(),
        password: form.password,
        all_day_blocks: form.allDayBlocks,
      };
}
