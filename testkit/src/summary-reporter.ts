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
