// A schema migration of one Postgres part (event store, relay, read models, the API's tables):
// a plain type, so each module declares its migrations beside its rows. The runner that applies
// them is `migrate` in @booking/event-store.
export type Migration = { name: string; sql: string };
