import type { ExpertEvent } from "../expert.ts";
import type { PayoutEvent } from "../payouts.ts";
import type { SessionEvent } from "../session.ts";
import type { TermsEvent } from "../terms.ts";
import type { UserEvent } from "../user.ts";
import { ERASED_TEXT, type EventPersonalData } from "./fields.ts";
import { EXPERT, fields, idIn, link, nothingPersonal, personal, text } from "./notation.ts";

// The personal data of the events about people and what they offer: users (`user-{id}`), terms acceptances
// (`terms-{id}`), an expert's profile and vetting (`expert-{expertId}`), sessions (`session-{id}`) and payouts
// (`payouts-{expertId}`). The rules are in ./fields.ts.

const user = idIn("userId");

/**
 * An erased application's bio: the application's schema asks a bio of at least 80 characters, and a stored event must
 * still parse once its author is erased.
 */
export const ERASED_APPLICATION_BIO = `${ERASED_TEXT} The applicant's account was deleted, and with it everything they wrote here.`;

export const USER_PERSONAL_DATA = {
  /** The zone the browser reported is a shared code (millions live in it), needed to give the other party's times: not personal. */
  UserRegistered: fields(
    ["userId", "timezone"],
    personal("email", "email", user),
    personal("firstName", "first_name", user),
    personal("lastName", "last_name", user),
  ),
  UserRenamed: fields(["userId"], personal("firstName", "first_name", user), personal("lastName", "last_name", user)),
  EmailVerified: fields(["userId"], personal("email", "email", user)),
  PreferencesSet: nothingPersonal("userId", "timezone"),
  /** Ids and a time: what stays of a person once erased. */
  UserErased: nothingPersonal("userId", "at", "expertIds[]"),
} satisfies { [T in UserEvent["type"]]: EventPersonalData };

export const TERMS_PERSONAL_DATA = {
  TermsAccepted: nothingPersonal("userId", "versionId", "acceptedAt"),
} satisfies { [T in TermsEvent["type"]]: EventPersonalData };

/** The expert stream's `by` is the acting user's id (the applicant, or the deciding admin); `at` a time. */
const decision = ["expertId", "by", "at"];

export const EXPERT_PERSONAL_DATA = {
  /**
   * The whole profile describes the person: names, the title and tags they chose for themselves, their bio, their
   * photo's path; and the slug, made of their name.
   */
  ExpertProfileSaved: fields(
    ["expertId", "userId"],
    personal("slug", "slug", user),
    personal("profile.firstName", "first_name", user),
    personal("profile.lastName", "last_name", user),
    text("profile.title", user),
    text("profile.bio", user),
    text("profile.tags[]", user),
    link("profile.profileImage", user),
  ),
  /** An admin's reason, about the expert. */
  ExpertVerified: fields(["expertId", "by"], text("reason", EXPERT)),
  ExpertUnverified: fields(["expertId", "by"], text("reason", EXPERT)),
  ApplicationSubmitted: fields(
    decision,
    text("answers.expertise", EXPERT),
    text("answers.title", EXPERT),
    personal("answers.bio", "text", EXPERT, ERASED_APPLICATION_BIO),
    link("answers.links[]", EXPERT),
    text("answers.creatorsCanExpect", EXPERT),
  ),
  ApplicationReviewStarted: nothingPersonal(...decision),
  /** A reviewer's console-only note on the applicant: about the expert. */
  ApplicationNoted: fields(decision, text("note", EXPERT)),
  ApplicationApproved: fields(decision, text("reason", EXPERT)),
  ApplicationChangesRequested: fields(decision, text("reason", EXPERT)),
  ApplicationRejected: fields([...decision, "mayReapplyFrom"], text("reason", EXPERT)),
  ExpertSuspended: fields(decision, text("reason", EXPERT)),
  ExpertReinstated: fields(decision, text("reason", EXPERT)),
} satisfies { [T in ExpertEvent["type"]]: EventPersonalData };

/**
 * A session is the expert's published product: its title, descriptions and prep questions are catalogue text written
 * to sell it, not a description of a person, and bookings keep showing them to the creator after the expert is erased.
 */
const definition = [
  "definition.title",
  "definition.description",
  "definition.prepQuestions[]",
  "definition.sessionDetails",
  "definition.idealFor[]",
];

export const SESSION_PERSONAL_DATA = {
  SessionCreated: nothingPersonal("sessionId", "expertId", ...definition),
  SessionUpdated: nothingPersonal("sessionId", ...definition),
  SessionPublished: nothingPersonal("sessionId"),
  SessionUnpublished: nothingPersonal("sessionId"),
  SessionDeleted: nothingPersonal("sessionId"),
} satisfies { [T in SessionEvent["type"]]: EventPersonalData };

/** Provider account, transfer and payout ids, and the provider's failure messages: not personal. */
export const PAYOUT_PERSONAL_DATA = {
  PayoutAccountConnected: nothingPersonal("expertId", "accountId"),
  PayoutAccountUpdated: nothingPersonal("expertId", "accountId", "reportedAt"),
  /** An admin's reason for holding the expert's payouts: about the expert. */
  PayoutsHeld: fields(["expertId", "by"], text("reason", EXPERT)),
  PayoutsResumed: nothingPersonal("expertId", "by"),
  EarningReleased: nothingPersonal("expertId", "bookingId"),
  EarningAdjusted: nothingPersonal("expertId", "bookingId"),
  TransferSent: nothingPersonal("expertId", "transferKey", "bookingId", "transferId"),
  TransferFailed: nothingPersonal("expertId", "transferKey", "bookingId", "reason"),
  TransferReversed: nothingPersonal("expertId", "reversalKey", "bookingId", "transferId", "reversalId"),
  TransferReversalFailed: nothingPersonal("expertId", "reversalKey", "bookingId", "reason"),
  PayoutRequested: nothingPersonal("expertId", "payoutKey"),
  PayoutSent: nothingPersonal("expertId", "payoutKey", "payoutId"),
  PayoutPaid: nothingPersonal("expertId", "payoutKey", "payoutId"),
  PayoutFailed: nothingPersonal("expertId", "payoutKey", "reason"),
} satisfies { [T in PayoutEvent["type"]]: EventPersonalData };
