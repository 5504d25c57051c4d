import { z } from "zod";

// A visitor's request for an invitation, from the landing page's calls to action. The same schema
// checks the form in the browser and the body at the API, so both say the same thing.

/** The most characters "What do you need?" may hold. */
export const EARLY_ACCESS_NEED_MAX = 2000;

export const EarlyAccessRole = z.enum(["creator", "expert"], { error: "early_access_role_required" });
export type EarlyAccessRole = z.infer<typeof EarlyAccessRole>;

export const EarlyAccessBody = z.strictObject({
  name: z
    .string({ error: "early_access_name_required" })
    .trim()
    .min(1, { error: "early_access_name_required" })
    .max(100, { error: "early_access_name_required" }),
  // Stored lowercased, so one address asking twice is one request whatever its case.
  email: z
    .string({ error: "early_access_email_invalid" })
    .trim()
    .toLowerCase()
    .max(254, { error: "early_access_email_invalid" })
    .pipe(z.email({ error: "early_access_email_invalid" })),
  role: EarlyAccessRole,
  need: z
    .string({ error: "early_access_need_required" })
    .trim()
    .min(1, { error: "early_access_need_required" })
    .max(EARLY_ACCESS_NEED_MAX, { error: "early_access_need_required" }),
});
export type EarlyAccessBody = z.infer<typeof EarlyAccessBody>;
