import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { EXPERT_STANDARDS_VERSION } from "@booking/contracts";
import { call, signUp, type DemoPerson } from "./accounts.ts";

// Experts still being vetted (issue 30), so the console's queue has work and the states show: one application
// waiting for review, and one our team asked to change. Neither is listed or bookable.

type Applicant = DemoPerson & { title: string; bio: string; expertise: string; links: string[]; years: number; expect: string };

export const APPLICANTS: readonly Applicant[] = [
  {
    email: "quinn.applicant@demo.example",
    first_name: "Quinn",
    last_name: "Harlow",
    title: "Newsletter growth consultant",
    expertise: "Newsletters and paid subscriptions",
    bio: "I grew two newsletters past 40,000 subscribers and have advised thirty writers on pricing, referral loops and sponsor decks.",
    links: ["https://quinn-harlow.demo.example/portfolio", "https://social.demo.example/@quinnharlow"],
    years: 7,
    expect: "A growth plan for your next 1,000 subscribers, and a pricing check of your paid tier.",
  },
  {
    email: "rafa.applicant@demo.example",
    first_name: "Rafa",
    last_name: "Okoye",
    title: "Live-stream producer",
    expertise: "Live streaming for makers",
    bio: "Producer of weekly maker streams for five years: lighting, two-camera setups on a budget, and keeping chat engaged for an hour.",
    links: ["https://rafa-okoye.demo.example/reel"],
    years: 5,
    expect: "A review of one of your streams with three changes to make before the next.",
  },
];

/** Sign the applicants up, publish their profiles and send their applications; the second gets a request for changes. */
export async function seedApplicants(
  app: FastifyInstance,
  db: pg.Pool,
  requestChanges: (expertId: string, seenRevision: number, reason: string) => Promise<void>,
): Promise<void> {
  for (const [i, a] of APPLICANTS.entries()) {
    const { id, token } = await signUp(app, db, a, "expert");
    await call(
      app,
      "PATCH",
      "/experts/me",
      { first_name: a.first_name, last_name: a.last_name, title: a.title, bio: a.bio, published: true },
      token,
    );
    const sent = await call<{ revision: number }>(
      app,
      "POST",
      "/experts/me/application",
      {
        expertise: a.expertise,
        title: a.title,
        bio: a.bio,
        links: a.links,
        years_of_experience: a.years,
        creators_can_expect: a.expect,
        standards_version: EXPERT_STANDARDS_VERSION,
      },
      token,
    );
    if (i === 1) await requestChanges(id, sent.revision, "Please add a link to a recent stream of yours, so we can see your work.");
  }
}
