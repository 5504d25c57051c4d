export * from "./postgres.ts";
export * from "./docker.ts";
export * from "./statements.ts";
