export * from "./postgres.ts";
export * from "./docker.ts";
export * from "./statements.ts";
export * from "./stripe-fixtures.ts";
export * from "./stripe-fixtures-server.ts";
export * from "./caldav-server.ts";
export * from "./passkey-authenticator.ts";
export * from "./data-key-secret.ts";
