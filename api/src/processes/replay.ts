import { parseArgs } from "node:util";
import pg from "pg";
import {
  allProjections,
  claimRebuild,
  migrateReadModels,
  projectionNamed,
  rebuildProjections,
  type Projection,
  type RebuildProgress,
} from "@booking/projections";
import { loadConfig, storeConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { openPersonalDataLog } from "../main/event-store.ts";

// `npm run replay [-- --projection NAME]`: rebuild read models from the event store (not Kafka),
// blue-green: a new generation of each is built while the live one keeps serving and being
// projected, then one transaction switches readers to them all; the runners continue on them.

const { values } = parseArgs({ options: { projection: { type: "string", short: "p" } } });
const config = loadConfig("replay", storeConfig);
const targets = values.projection ? [projectionNamed(values.projection)] : allProjections;
if (targets.some((p) => !p)) {
  console.error(`replay: unknown projection "${values.projection}"; known: ${allProjections.map((p) => p.name).join(", ")}`);
  process.exit(64);
}

warnOfDevelopmentSecret("replay", config);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 });
await migrateReadModels(pool);
// The read models are rebuilt from the log as readers see it: personal fields opened (issue 33.1).
const personalDataLog = await openPersonalDataLog(config, pool);
const store = personalDataLog.store;

const interactive = process.stderr.isTTY;
let lastDraw = 0;
function draw(p: RebuildProgress, final = false) {
  const now = Date.now();
  if (!final && now - lastDraw < (interactive ? 100 : 1000)) return;
  lastDraw = now;
  const width = 30;
  const filled = p.total ? Math.round((p.done / p.total) * width) : width;
  const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
  const eta = p.secondsLeft === null ? "?" : `${Math.ceil(p.secondsLeft)}s`;
  const line =
    `[${p.projection}] ${bar} ${p.done.toLocaleString("en-US")}/${p.total.toLocaleString("en-US")} events  ` +
    `${Math.round(p.eventsPerSecond).toLocaleString("en-US")} ev/s  left ${eta}`;
  process.stderr.write(interactive ? `\r${line}${final ? "\n" : ""}` : `${line}\n`);
}

const names = targets.map((p) => p!.name);
const claim = await claimRebuild(pool, names);
if (!claim) {
  console.error(
    `replay: a rebuild of ${names.length === 1 ? names[0] : "one of these read models"} is already running ` +
      `(the admin console or another replay); try again when it has finished`,
  );
  await personalDataLog.close();
  await pool.end();
  process.exit(75);
}
let result: Awaited<ReturnType<typeof rebuildProjections>>;
try {
  result = await rebuildProjections(store, pool, targets as Projection[], { claim, onProgress: (p) => draw(p), batchSize: 2000 });
} finally {
  await claim.release();
}
process.stderr.write(
  `replay: readers switched to ${Object.entries(result.generations)
    .map(([name, g]) => `${name} generation ${g}`)
    .join(", ")}; the generations they replace are kept until the next rebuild\n`,
);
const eventsPerSecond = Math.round(result.events / Math.max(result.seconds, 1e-9));
draw(
  {
    projection: targets.length === 1 ? targets[0]!.name : `${targets.length} read models`,
    done: result.events,
    total: result.events,
    eventsPerSecond,
    secondsLeft: 0,
  },
  true,
);
console.log(
  JSON.stringify({
    replayed: names,
    events: result.events,
    seconds: Number(result.seconds.toFixed(3)),
    eventsPerSecond,
    generations: result.generations,
  }),
);
await personalDataLog.close();
await pool.end();
