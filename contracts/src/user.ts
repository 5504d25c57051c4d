import { z } from "zod";
import { Id } from "./primitives.ts";

// Stream `user-{userId}`: who signed up, as what, whether they proved their address, and how they
// want to hear from us. Credentials never enter the event log.

export const UserRole = z.enum(["creator", "expert", "admin"]);
export type UserRole = z.infer<typeof UserRole>;

export const UserEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("UserRegistered"),
    data: z.object({
      userId: Id,
      email: z.string(),
      role: UserRole,
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      /** The IANA zone the browser reported at sign-up (absent on older events and API-made users: UTC then). */
      timezone: z.string().optional(),
    }),
  }),
  z.object({
    type: z.literal("UserRenamed"),
    data: z.object({ userId: Id, firstName: z.string().nullable(), lastName: z.string().nullable() }),
  }),
  /** The owner followed a verification (or password reset) link sent to `email`. */
  z.object({ type: z.literal("EmailVerified"), data: z.object({ userId: Id, email: z.string() }) }),
  /** The zone the user's mails give times in, and whether non-essential mails (reminders) are sent; essential ones always are. */
  z.object({ type: z.literal("PreferencesSet"), data: z.object({ userId: Id, timezone: z.string(), reminderMails: z.boolean() }) }),
]);
export type UserEvent = z.infer<typeof UserEvent>;
