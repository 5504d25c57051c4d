import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends a run with one plain line, `Tests: N passed, N failed, N skipped`, that any CI can read,
 * lists the skipped tests so a missing service never passes unnoticed, and the slowest files.
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
    // Where the run's time went: the slowest files, so a CI log says what to cut when the 30-minute budget is near.
    const slowest = [...testModules]
      .map((m) => ({ file: `${m.project.name} ${m.relativeModuleId}`, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15);
    console.log(`\nSlowest files:\n${slowest.map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`).join("\n")}`);
    // Repeated at the very end: a CI that keeps only the tail of the log still shows what failed.
    for (const e of unhandledErrors) console.log(`\nUnhandled error: ${describeError(e)}`);
    if (skipped.length) console.log(`\nSkipped (${skipped.length}):\n${skipped.map((s) => `  - ${s}`).join("\n")}`);
    console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
  }
}

function describeError(e: unknown): string {
  if (typeof e !== "object" || e === null) return String(e);
  const {
    name,
    message,
    stack,
    stacks,
    type,
    VITEST_TEST_PATH: file,
  } = e as {
    name?: string;
    message?: string;
    stack?: string;
    type?: string;
    VITEST_TEST_PATH?: string;
    stacks?: { file: string; line: number; method: string }[];
  };
  const frames = stacks?.length
    ? stacks.slice(0, 8).map((f) => `    at ${f.method || "<anonymous>"} (${f.file}:${f.line})`)
    : (stack ?? "").split("\n").slice(1, 9);
  return [`${type ? `${type}, ` : ""}${file ? `while ${file} ran: ` : ""}${name ?? "Error"}: ${message ?? ""}`, ...frames].join("\n");
}
