import type pg from "pg";
import { migrate } from "@booking/event-store";
import { ensureCheckpoints } from "./apply.ts";
import { allProjections } from "./read-models/index.ts";
import { readModelMigrations } from "./schema.ts";

/** Create or update the read-model schema and a checkpoint row for every projection. */
export async function migrateReadModels(pool: pg.Pool): Promise<void> {
  await migrate(pool, "read_model_migrations", readModelMigrations);
  await ensureCheckpoints(pool, allProjections);
}
