import type { Booking } from "../shared/api-types.ts";

/** The screens of Manage Booking: the booking itself, a step to act on it, and the answer once the API took the action. */
export type ManageStep =
  "detail" | "accept" | "propose" | "confirmation" | "proposed" | "more-info" | "more-info-confirmation" | "decline" | "declined";

/** The screens shown after an action succeeded. */
export type DoneStep = Extract<ManageStep, "confirmation" | "proposed" | "more-info-confirmation" | "declined">;

export type ManageState = {
  step: ManageStep;
  /** The day shown in the propose grid, in the expert's zone, and the time chosen on it. */
  day: string;
  time: string | null;
  note: string;
  noteError: string | null;
  reason: string;
  reasonError: string | null;
  /** A refusal in the catalogue's words. */
  failure: string | null;
  busy: boolean;
  /** The booking as the last action answered it. */
  result: Booking | null;
};

export type ManageAction =
  | { type: "go"; step: ManageStep }
  | { type: "day"; day: string }
  | { type: "time"; time: string }
  | { type: "note"; note: string }
  | { type: "noteError"; error: string | null }
  | { type: "reason"; reason: string }
  | { type: "reasonError"; error: string | null }
  | { type: "failed"; failure: string | null }
  | { type: "sending" }
  | { type: "sent"; result: Booking; next: ManageStep }
  | { type: "refused"; failure: string };

export const initialManageState = (day: string): ManageState => ({
  step: "detail",
  day,
  time: null,
  note: "",
  noteError: null,
  reason: "",
  reasonError: null,
  failure: null,
  busy: false,
  result: null,
});

export function manageReducer(state: ManageState, action: ManageAction): ManageState {
  switch (action.type) {
    case "go":
      return { ...state, step: action.step };
    case "day":
      // Another day's times: the one chosen before is not on it.
      return { ...state, day: action.day, time: null };
    case "time":
      return { ...state, time: action.time };
    case "note":
      return { ...state, note: action.note };
    case "noteError":
      return { ...state, noteError: action.error };
    case "reason":
      return { ...state, reason: action.reason };
    case "reasonError":
      return { ...state, reasonError: action.error };
    case "failed":
      return { ...state, failure: action.failure };
    case "sending":
      return { ...state, busy: true, failure: null };
    case "sent":
      return { ...state, busy: false, result: action.result, step: action.next };
    case "refused":
      return { ...state, busy: false, failure: action.failure };
  }
}
