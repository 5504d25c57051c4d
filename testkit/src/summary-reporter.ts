import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends a run with one plain line, `Tests: N passed, N failed, N skipped`, that any CI can read,
 * and lists the skipped tests so a missing service never passes unnoticed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped.push(`${m.project.name} > ${t.fullName}`);
      }
      if (m.state() === "failed" && [...m.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    if (skipped.length) console.log(`\nSkipped (${skipped.length}):\n${skipped.map((s) => `  - ${s}`).join("\n")}`);
    console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
  }
}
