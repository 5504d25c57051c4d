export * from "./bus.ts";
export * from "./bus-message.ts";
export * from "./kafka-publisher.ts";
export * from "./relay-checkpoints.ts";
export * from "./relay.ts";
