import { summariseProfile } from "./lib/cpuprofile.ts";

// `tsx bench/profile-summary.ts file.cpuprofile [top]`: the self time of a CPU profile by area and by function.
const summary = await summariseProfile(process.argv[2]!, Number(process.argv[3] ?? 25));
console.log(`total ${summary.totalMs} ms`);
for (const a of summary.byArea) console.log(`${String(a.pct).padStart(5)}%  ${String(a.ms).padStart(7)} ms  ${a.area}`);
console.log("");
for (const f of summary.topFunctions) console.log(`${String(f.pct).padStart(5)}%  ${String(f.ms).padStart(7)} ms  ${f.fn}`);
