import pg from "pg";
import { loadConfig, storeConfig, warnOfDevelopmentSecret } from "../main/config.ts";
import { sealStoredEvents } from "@booking/event-store";
import { bookingPartyBook, openPersonalDataLog } from "../main/event-store.ts";

// `npm run seal-stored-events`: once, on a log written before personal data was sealed (issue 33.1), rewrite every
// stored event's personal fields as envelopes in place. Safe to run again, and while the product runs: what is sealed
// stays as it is, and every reader opens plain and sealed fields alike. Publishes nothing
// (@booking/event-store's personal-data/seal-stored-events.ts says why).

const config = loadConfig("seal-stored-events", storeConfig);
if (config.ESDB_URL) {
  console.error(
    "seal-stored-events: EventStoreDB's streams are append-only, so stored events cannot be rewritten there (unset ESDB_URL to seal the Postgres store)",
  );
  process.exit(64);
}
warnOfDevelopmentSecret("seal-stored-events", config);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 });
pool.on("error", () => undefined);
const log = await openPersonalDataLog(config, pool);
let lastLine = 0;
try {
  const result = await sealStoredEvents(
    { pool, keys: log.keys, parties: bookingPartyBook(log.store.stored, pool) },
    {
      onProgress: (p) => {
        if (Date.now() - lastLine < 1000 && p.done < p.total) return;
        lastLine = Date.now();
        process.stderr.write(
          `seal-stored-events: ${p.done.toLocaleString("en-US")}/${p.total.toLocaleString("en-US")} events, ${p.rewritten.toLocaleString("en-US")} rewritten\n`,
        );
      },
    },
  );
  console.log(JSON.stringify(result));
  // Events whose owner could not be told are still in plain text: say so, and fail, so it is not mistaken for done.
  if (result.leftPlainCount > 0) {
    console.error(`seal-stored-events: ${result.leftPlainCount} event(s) left in plain text, their owner unknown (listed above)`);
    process.exitCode = 2;
  }
} finally {
  await log.close();
  await pool.end();
}
