// Each reliability test prints its figure as one block, easy to find in CI output.
export function printFigure(test: string, figures: Record<string, unknown>): void {
  const lines = Object.entries(figures).map(([k, v]) => `  ${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  console.log(`\nRELIABILITY ${test}\n${lines.join("\n")}\n`);
}

export const elapsed = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
