import { z } from "zod";
import { Id } from "./primitives.ts";

// Stream `user-{userId}`: who signed up, as what, whether they proved their address, how they
// want to hear from us, and whether they deleted their account. Credentials never enter the event log.

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
  /**
   * The person deleted their account (issue 33.2); their data key goes with it, so each personal field of theirs in any
   * event reads as erased from then on. `expertIds`: their expert profiles, named so that the read models can find the
   * rows of other streams (schedules, reviews) that hold their words without asking another read model.
   */
  z.object({ type: z.literal("UserErased"), data: z.object({ userId: Id, at: z.string(), expertIds: z.array(Id) }) }),
]);
export type UserEvent = z.infer<typeof UserEvent>;
