export * from "./projection.ts";
export * from "./schema.ts";
export * from "./migrate.ts";
export * from "./apply.ts";
export * from "./digest.ts";
export * from "./rebuild.ts";
export * from "./read-models/index.ts";
export * from "./runners/in-process.ts";
export * from "./runners/kafka-consumer.ts";
// Read models moved into one module each (issue 14): their Row, queries and replies.
export * from "./read-models/bookings.ts";
export * from "./read-models/bookings-queries.ts";
