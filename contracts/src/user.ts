import { z } from "zod";
import { Id } from "./primitives.ts";

// Stream `user-{userId}`: who signed up, as what. Credentials never enter the event log.

export const UserRole = z.enum(["creator", "expert", "admin"]);
export type UserRole = z.infer<typeof UserRole>;

export const UserEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("UserRegistered"),
    data: z.object({ userId: Id, email: z.string(), role: UserRole, firstName: z.string().nullable(), lastName: z.string().nullable() }),
  }),
  z.object({ type: z.literal("UserRenamed"), data: z.object({ userId: Id, firstName: z.string().nullable(), lastName: z.string().nullable() }) }),
]);
export type UserEvent = z.infer<typeof UserEvent>;
