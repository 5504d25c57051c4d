export * from "./port.ts";
export * from "./sql-migrations.ts";
export * from "./append-waiter.ts";
export * from "./postgres/migrations.ts";
export * from "./postgres/postgres-event-store.ts";
export * from "./eventstoredb/eventstoredb-event-store.ts";
export * from "./commands/command-handler.ts";
export * from "./relay/index.ts";
