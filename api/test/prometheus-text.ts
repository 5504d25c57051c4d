// Reading a scrape in Prometheus' text format, as the metrics tests need it.

/** The sum of a metric's samples whose labels include `labels` (0 when there is none). */
export function sampled(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** Whether the scrape has a sample of `name` with these labels (a gauge at 0 is there; one whose statement failed is not). */
export const present = (text: string, name: string, labels: Record<string, string>) =>
  text.split("\n").some((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)));
