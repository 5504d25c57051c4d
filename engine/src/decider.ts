import type { Result } from "@booking/contracts";

/** What a decision may depend on besides state: the time, passed in so the domain has no clock. */
export type DecisionContext = { now: string };

/**
 * A decider: `decide(command, state, context)` returns the events a command produces or the
 * refusal; `evolve(state, events)` folds events into the next state. Both are pure: `evolve`
 * never changes the state it is given.
 */
export type Decider<Command, Event, State> = {
  initialState: () => State;
  evolve: (state: State, events: readonly Event[]) => State;
  decide: (command: Command, state: State, context: DecisionContext) => Result<Event[]>;
};
