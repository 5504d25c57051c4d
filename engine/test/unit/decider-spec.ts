import { expect } from "vitest";
import { refusalMessage, type ErrorCode, type Result } from "@booking/contracts";
import type { Decider } from "../../src/decider.ts";

/** given events / when command / then events or refusal. */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>, defaultNow: string) {
  return (given: readonly E[]) => ({
    when: (command: C, now: string = defaultNow) => {
      const state = decider.evolve(decider.initialState(), given);
      const result: Result<E[]> = decider.decide(command, state, { now });
      return {
        result,
        then: (expected: E[]) => expect(result).toEqual({ ok: true, value: expected }),
        thenRefused: (code: ErrorCode, message?: string) => {
          expect(result.ok, `expected refusal ${code}, got ${JSON.stringify(result)}`).toBe(false);
          if (result.ok) return;
          expect(result.refusal.code).toBe(code);
          if (message) expect(refusalMessage(result.refusal)).toBe(message);
        },
      };
    },
  });
}
