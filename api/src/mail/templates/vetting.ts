import type { VettingDecision } from "../facts.ts";
import type { MailBody } from "./layout.ts";
import { localTime } from "./when.ts";

// The mail an expert gets for each decision on their application or standing (issue 30), with the team's reason.

export type VettingMailInput = {
  firstName: string | null;
  decision: VettingDecision;
  reason: string;
  mayReapplyFrom: string | null;
  zone: string;
};

const HEADINGS: Record<VettingDecision, { subject: string; lead: string; action: string }> = {
  approved: {
    subject: "You are approved: creators can book you",
    lead: "Our team reviewed your application and approved you. Your profile now carries the check mark, and creators can book your sessions.",
    action: "Open your dashboard",
  },
  changes_requested: {
    subject: "Your application: a change is needed",
    lead: "Our team reviewed your application and asks for a change before approving it. Update it and send it again.",
    action: "Update your application",
  },
  rejected: {
    subject: "Your application was not approved",
    lead: "Our team reviewed your application and did not approve it this time.",
    action: "See your application",
  },
  suspended: {
    subject: "Your profile is suspended",
    lead: "Our team suspended your profile: creators cannot book you for now. We will contact you about the bookings you already have.",
    action: "See your application",
  },
  reinstated: {
    subject: "Your profile is back: creators can book you again",
    lead: "Our team reinstated your profile. Creators can book your sessions again.",
    action: "Open your dashboard",
  },
};

export function vettingDecidedBody(input: VettingMailInput, applicationUrl: string): MailBody {
  const h = HEADINGS[input.decision];
  const again =
    input.decision === "rejected" && input.mayReapplyFrom
      ? [`You can apply again from ${localTime(input.mayReapplyFrom, input.zone)}.`]
      : [];
  return {
    subject: h.subject,
    preview: h.lead,
    firstName: input.firstName,
    paragraphs: [h.lead, "Our team's note:", ...again],
    quote: input.reason,
    action: { label: h.action, url: applicationUrl },
    footer: "You get this mail because you applied to be an expert.",
  };
}
