import { ApplicationAnswers, EXPERT_STANDARDS_VERSION, type ApplicationAnswersReply, type ApplicationReply } from "@booking/contracts";
import { checkForm, type FormCheck } from "../shared/form-check.ts";

// The application form's checks before anything is sent (issue 30): the API's own answers schema, so the
// browser and the server refuse the same things with the same catalogue words. The server stays the judge.

/** The form as typed: links one per line, the years as the field holds them. */
export type ApplicationInput = {
  expertise: string;
  title: string;
  bio: string;
  links: string;
  yearsOfExperience: string;
  creatorsCanExpect: string;
  /** "I agree to the expert standards" (the ones shown, version EXPERT_STANDARDS_VERSION). */
  agreed: boolean;
};
export type ApplicationField = keyof ApplicationAnswers;
export type ApplicationErrors = Partial<Record<ApplicationField, string>>;
/** POST /experts/me/application's body: snake_case like every body. */
export type ApplicationBody = ApplicationAnswersReply;
export type ApplicationCheck = { ok: true; body: ApplicationBody } | { ok: false; errors: ApplicationErrors };

export const BIO_MIN = 80;
export const BIO_MAX = 5_000;
export const LINKS_MAX = 10;

export const emptyApplication: ApplicationInput = {
  expertise: "",
  title: "",
  bio: "",
  links: "",
  yearsOfExperience: "",
  creatorsCanExpect: "",
  agreed: false,
};

/** The form for a resubmission starts from the answers sent last; the standards are agreed anew. */
export const applicationInputFrom = (answers: ApplicationReply["answers"]): ApplicationInput =>
  answers
    ? {
        expertise: answers.expertise,
        title: answers.title,
        bio: answers.bio,
        links: answers.links.join("\n"),
        yearsOfExperience: String(answers.years_of_experience),
        creatorsCanExpect: answers.creators_can_expect,
        agreed: false,
      }
    : emptyApplication;

/** Links are typed one per line; blank lines are dropped. */
export const linksFrom = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** "" is no answer (not 0); anything else is read as a number for the schema to judge. */
const yearsFrom = (text: string): number | undefined => (text.trim() === "" ? undefined : Number(text.trim()));

export function checkApplication(input: ApplicationInput): ApplicationCheck {
  const check: FormCheck<ApplicationAnswers, ApplicationField> = checkForm(ApplicationAnswers, {
    expertise: input.expertise,
    title: input.title,
    bio: input.bio,
    links: linksFrom(input.links),
    yearsOfExperience: yearsFrom(input.yearsOfExperience),
    creatorsCanExpect: input.creatorsCanExpect,
    standardsVersion: input.agreed ? EXPERT_STANDARDS_VERSION : undefined,
  });
  if (!check.ok) return check;
  const a = check.body;
  return {
    ok: true,
    body: {
      expertise: a.expertise,
      title: a.title,
      bio: a.bio,
      links: a.links,
      years_of_experience: a.yearsOfExperience,
      creators_can_expect: a.creatorsCanExpect,
      standards_version: a.standardsVersion,
    },
  };
}

/** A rejected expert may apply again once the waiting period is over (or when none was set). */
export const mayReapply = (application: Pick<ApplicationReply, "may_reapply_from">, now = new Date()): boolean =>
  application.may_reapply_from === null || Date.parse(application.may_reapply_from) <= now.getTime();
