import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { allProjections, migrateReadModels } from "../src/index.ts";
import { marketplaceEvents } from "./marketplace-events.ts";
import { foldRows, rowsOnPostgres } from "./read-model-spec.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Each read model on Postgres: the runners' batch, through the real table and its column
// types, leaves exactly the rows the pure fold gives (the unit tests' given/then rows).

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase(testPostgresUrl(), "rmpg");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await migrateReadModels(pool);
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

describe("each read model on Postgres holds the rows its rule gives", () => {
  for (const projection of allProjections) {
    it(projection.name, async () => {
      const expected = foldRows(projection, marketplaceEvents);
      expect(expected.length, "the scenario gives this read model rows").toBeGreaterThan(0);
      expect(await rowsOnPostgres(pool, projection, marketplaceEvents)).toEqual(expected);
    });
  }
});
