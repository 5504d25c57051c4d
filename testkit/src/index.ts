export * from "./postgres.ts";
export * from "./docker.ts";
