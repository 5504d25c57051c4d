import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Booking, Session } from "../shared/api-types.ts";

// The booking-flow context of spec section 3: bookingId, bookingData, session, scheduledTime,
// with a clear action. Kept in sessionStorage per session, so a reload does not lose a paid booking.

export type BookingStep = 0 | 1 | 2 | 3 | 4;
export const STEP_NAMES = ["Session Detail", "Select Time", "Payment", "Preparation", "Confirmation"] as const;

type FlowState = {
  bookingId: string | null;
  bookingData: Booking | null;
  scheduledTime: string | null;
  step: BookingStep;
  reached: BookingStep;
  paid: boolean;
};

type FlowValue = FlowState & {
  session: Session | null;
  update: (change: Partial<FlowState>) => void;
  goTo: (step: BookingStep) => void;
  clear: () => void;
};

const BookingFlowContext = createContext<FlowValue | null>(null);
const initial: FlowState = { bookingId: null, bookingData: null, scheduledTime: null, step: 0, reached: 0, paid: false };
const storageKey = (sessionId: string) => `expert-sessions.booking-flow.${sessionId}`;

function restore(sessionId: string): FlowState {
  try {
    const raw = sessionStorage.getItem(storageKey(sessionId));
    return raw ? { ...initial, ...(JSON.parse(raw) as Partial<FlowState>) } : initial;
  } catch {
    return initial;
  }
}

/** The flow of an unpaid booking taken up again from the dashboard: at its payment step. */
export const resumedAtPayment = (booking: Booking): FlowState => ({
  bookingId: booking.id,
  bookingData: booking,
  scheduledTime: booking.scheduled_time,
  step: 2,
  reached: 2,
  paid: booking.paid,
});

export function BookingFlowProvider({
  sessionId,
  session,
  resume = null,
  children,
}: {
  sessionId: string;
  session: Session | null;
  resume?: Booking | null;
  children: ReactNode;
}) {
  const [state, setState] = useState<FlowState>(() => (resume ? resumedAtPayment(resume) : restore(sessionId)));
  useEffect(() => {
    try {
      if (state.step === 4 || state === initial) sessionStorage.removeItem(storageKey(sessionId));
      else sessionStorage.setItem(storageKey(sessionId), JSON.stringify(state));
    } catch {
      // Storage unavailable: the flow lives in memory only.
    }
  }, [state, sessionId]);
  const update = useCallback((change: Partial<FlowState>) => setState((s) => ({ ...s, ...change })), []);
  const goTo = useCallback((step: BookingStep) => setState((s) => ({ ...s, step, reached: Math.max(s.reached, step) as BookingStep })), []);
  const clear = useCallback(() => setState(initial), []);
  const value = useMemo(() => ({ ...state, session, update, goTo, clear }), [state, session, update, goTo, clear]);
  return <BookingFlowContext.Provider value={value}>{children}</BookingFlowContext.Provider>;
}

export function useBookingFlow(): FlowValue {
  const value = useContext(BookingFlowContext);
  if (!value) throw new Error("useBookingFlow outside BookingFlowProvider");
  return value;
}

/**
 * Steps a marker may jump to: reached ones, never back before a payment. Before paying, the
 * creator may go back and choose another time (the time step then releases the held one).
 */
export function stepIsReachable(step: BookingStep, flow: Pick<FlowState, "reached" | "paid" | "step">): boolean {
  if (flow.step === 4) return step === 4;
  if (step > flow.reached) return false;
  if (flow.paid && step < 3) return false;
  return true;
}
