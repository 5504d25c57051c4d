import { z } from "zod";

// Where a person is signed in (issue 33.5): each sign-in is one refresh-token family, named by the
// device it began on (browser and system from its User-Agent; no place: that would need an outside
// service), with when it began and when it was last refreshed.

export const SignInRecord = z.strictObject({
  id: z.string(),
  /** "Chrome on Linux", "Safari on iPhone", or "Unknown device". */
  device: z.string(),
  /** When the sign-in began. */
  first_seen_at: z.string(),
  /** Its last refresh (or its beginning, before the first). */
  last_seen_at: z.string(),
  /** The sign-in the request came with: "This device". */
  current: z.boolean(),
});
export type SignInRecord = z.infer<typeof SignInRecord>;

/** GET /auth/sign-ins: the caller's active sign-ins, newest first. */
export const SignInsReply = z.strictObject({ sign_ins: z.array(SignInRecord) });
export type SignInsReply = z.infer<typeof SignInsReply>;

/** DELETE /auth/sign-ins/{id}. */
export const SignInParams = z.strictObject({ id: z.string().max(64, { error: "sign_in_not_found" }) });
