import type { EventStore } from "@booking/event-store";
import { commandHandlers, type Commands } from "../main/index.ts";

// The demo's past, replayed in order of time: each step runs with the command handlers' clock set
// to its moment, so the events say when they happened and every rule (holds, notice, "is the
// session over", the review's edit window) is decided at that time. Steps go in time order across
// all streams, so each stream's history reads forwards (the console's time travel folds a
// stream up to an instant).

type Step = { at: number; order: number; run: () => Promise<void> };

export class Timeline {
  private clock = 0;
  private order = 0;
  private readonly steps: Step[] = [];
  /** Command handlers deciding at the timeline's clock. */
  readonly commands: Commands;

  /** The store the past is written to (reactors playing their part follow its log). */
  constructor(readonly store: EventStore) {
    this.commands = commandHandlers(store, () => this.now);
  }

  /** The moment the step running now happens at. */
  get now(): string {
    return new Date(this.clock).toISOString();
  }

  /** Do `run` at `at` (never before the step that plans it). */
  plan(at: number, run: () => Promise<void>): void {
    this.steps.push({ at: Math.max(at, this.clock), order: this.order++, run });
  }

  /** Run every step, earliest first; steps may plan later ones. */
  async play(): Promise<void> {
    for (;;) {
      let next = 0;
      for (let i = 1; i < this.steps.length; i++) {
        const [a, b] = [this.steps[i]!, this.steps[next]!];
        if (a.at < b.at || (a.at === b.at && a.order < b.order)) next = i;
      }
      const step = this.steps.splice(next, 1)[0];
      if (!step) return;
      this.clock = step.at;
      await step.run();
    }
  }
}
