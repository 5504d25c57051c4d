import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { EXPERT_STANDARDS, EXPERT_STANDARDS_VERSION, type ApplicationReply, type ApplicationStatus } from "@booking/contracts";
import { longDate } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { ApplicationTab, ApplicationView } from "./application-tab.tsx";

// Issue 30, the expert's side: where the application stands in plain words, and the form that applies.

const auth = signedInAs("expert");
const BIO = "I have run brand partnerships for creators for nine years, from first deals to six-figure yearly contracts.";

const draft: ApplicationReply = {
  status: "draft",
  revision: 0,
  answers: null,
  reason: null,
  submitted_at: null,
  may_reapply_from: null,
  standards_version: EXPERT_STANDARDS_VERSION,
};
const answers: NonNullable<ApplicationReply["answers"]> = {
  expertise: "Brand partnerships",
  title: "Brand Partnerships Advisor",
  bio: BIO,
  links: ["https://maya.example.com", "https://linkedin.example.com/maya"],
  years_of_experience: 9,
  creators_can_expect: "A plan for your next three brand deals.",
  standards_version: EXPERT_STANDARDS_VERSION,
};
const sent: ApplicationReply = { ...draft, status: "submitted", revision: 1, answers, submitted_at: "2026-11-02T12:00:00Z" };

const form = () => screen.getByRole("form", { name: "Your application" });
const field = (name: RegExp) => within(form()).getByRole(name.source.startsWith("Years") ? "spinbutton" : "textbox", { name });
const change = (name: RegExp, value: string) => fireEvent.change(field(name), { target: { value } });

function fillIn() {
  change(/Your expertise/, "  Brand partnerships ");
  change(/^Title/, "Brand Partnerships Advisor");
  change(/^Bio/, `${BIO}\n`);
  change(/Links to your work/, "https://maya.example.com\n\n  https://linkedin.example.com/maya  \n");
  change(/Years of experience/, "9");
  change(/What creators can expect/, "A plan for your next three brand deals.");
}

describe("where the application stands", () => {
  const later = "2026-12-02T12:00:00Z";
  const now = new Date("2026-11-10T12:00:00Z");
  const cases: Record<ApplicationStatus, { application: ApplicationReply; says: string[]; form: boolean }> = {
    draft: { application: draft, says: ["Apply to be listed: our team reviews every expert before creators can book them."], form: true },
    submitted: {
      application: sent,
      says: [
        "In review — we answer within 2 working days.",
        `Sent on ${longDate(sent.submitted_at ?? "")}. We will mail you when it is reviewed.`,
      ],
      form: false,
    },
    in_review: { application: { ...sent, status: "in_review" }, says: ["In review — we answer within 2 working days."], form: false },
    changes_requested: {
      application: { ...sent, status: "changes_requested", reason: "Please link to work you did yourself." },
      says: [
        "Changes requested — please update your application and send it again.",
        "From our team: Please link to work you did yourself.",
      ],
      form: true,
    },
    approved: {
      application: { ...sent, status: "approved", reason: "Welcome aboard." },
      says: ["Approved — creators can book you."],
      form: false,
    },
    rejected: {
      application: { ...sent, status: "rejected", reason: "We could not verify your clients.", may_reapply_from: later },
      says: ["Not approved this time.", "From our team: We could not verify your clients.", `You can apply again from ${longDate(later)}.`],
      form: false,
    },
    suspended: {
      application: { ...sent, status: "suspended", reason: "Three sessions missed in a row." },
      says: ["Suspended — new bookings are paused.", "From our team: Three sessions missed in a row.", "Creators cannot book you"],
      form: false,
    },
  };
  it.each(Object.entries(cases))("%s: says so, and offers the form only when the expert may apply", (_status, c) => {
    fakeApi({ "GET /experts/me/standing": { status: 500 } });
    renderScreen(<ApplicationView application={c.application} now={now} />, { auth });
    const status = screen.getByRole("status");
    for (const text of c.says) expect(status).toHaveTextContent(text);
    if (c.form) expect(form()).toBeInTheDocument();
    else expect(screen.queryByRole("form", { name: "Your application" })).not.toBeInTheDocument();
  });

  it("a rejected expert may apply again once the waiting period is over, from the answers sent last", () => {
    const rejected: ApplicationReply = { ...sent, status: "rejected", reason: "Not yet.", may_reapply_from: "2026-11-01T00:00:00Z" };
    renderScreen(<ApplicationView application={rejected} now={new Date("2026-11-10T12:00:00Z")} />, { auth });
    expect(screen.getByRole("status")).toHaveTextContent("You can apply again now.");
    expect(field(/Your expertise/)).toHaveValue("Brand partnerships");
  });
});

describe("the application form", () => {
  it("shows the standards and refuses, in the catalogue's words, what the server would refuse; nothing is sent", async () => {
    const calls = fakeApi({ "GET /experts/me/application": { status: 200, body: draft } });
    renderScreen(<ApplicationTab />, { auth });
    await screen.findByRole("form", { name: "Your application" });
    const standards = within(form()).getByRole("list", { name: "Expert standards" });
    expect(
      within(standards)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([...EXPERT_STANDARDS]);

    await userEvent.click(screen.getByRole("button", { name: "Submit application" }));
    expect(screen.getAllByText("Please fill in your expertise, title and what creators can expect.")).toHaveLength(3);
    expect(screen.getByText("Please write a bio of 80 to 5,000 characters.")).toBeInTheDocument();
    expect(screen.getByText("Please give one to ten links to your work, each starting with http:// or https://.")).toBeInTheDocument();
    expect(screen.getByText("Please give your years of experience as a whole number from 0 to 80.")).toBeInTheDocument();
    expect(screen.getByText("Please read and agree to the current expert standards.")).toBeInTheDocument();

    fillIn();
    change(/^Bio/, "Too short to tell creators anything.");
    change(/Links to your work/, "https://maya.example.com\nmaya.example.com/portfolio");
    change(/Years of experience/, "2.5");
    await userEvent.click(screen.getByRole("checkbox", { name: "I agree to the expert standards" }));
    await userEvent.click(screen.getByRole("button", { name: "Submit application" }));
    expect(screen.queryByText("Please fill in your expertise, title and what creators can expect.")).not.toBeInTheDocument();
    expect(screen.queryByText("Please read and agree to the current expert standards.")).not.toBeInTheDocument();
    expect(field(/^Bio/)).toHaveAccessibleDescription("Please write a bio of 80 to 5,000 characters.");
    expect(field(/Links to your work/)).toHaveAccessibleDescription(
      "Please give one to ten links to your work, each starting with http:// or https://.",
    );
    expect(field(/Years of experience/)).toHaveAccessibleDescription(
      "Please give your years of experience as a whole number from 0 to 80.",
    );
    change(/Years of experience/, "-1");
    await userEvent.click(screen.getByRole("button", { name: "Submit application" }));
    expect(field(/Years of experience/)).toHaveAccessibleDescription(
      "Please give your years of experience as a whole number from 0 to 80.",
    );
    expect(writes(calls)).toEqual([]);
  });

  it("sends the answers snake_case, trimmed, one link per line, with the standards version agreed to, then says it is in review", async () => {
    const calls = fakeApi({
      "GET /experts/me/application": { status: 200, body: draft },
      "POST /experts/me/application": { status: 201, body: sent },
    });
    renderScreen(<ApplicationTab />, { auth });
    await screen.findByRole("form", { name: "Your application" });
    fillIn();
    await userEvent.click(screen.getByRole("checkbox", { name: "I agree to the expert standards" }));
    await userEvent.click(screen.getByRole("button", { name: "Submit application" }));
    expect(await screen.findByText("In review — we answer within 2 working days.")).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Your application" })).not.toBeInTheDocument();
    expect(writes(calls)).toEqual([
      {
        method: "POST",
        path: "/experts/me/application",
        body: {
          expertise: "Brand partnerships",
          title: "Brand Partnerships Advisor",
          bio: BIO,
          links: ["https://maya.example.com", "https://linkedin.example.com/maya"],
          years_of_experience: 9,
          creators_can_expect: "A plan for your next three brand deals.",
          standards_version: EXPERT_STANDARDS_VERSION,
        },
      },
    ]);
  });

  it.each([
    ["application_profile_needed", 409, "Please save your profile before you apply."],
    // A message with a placeholder is filled in by the server and shown as it came.
    ["application_reapply_wait", 409, "You can apply again from 2026-12-02."],
  ])("shows the server's refusal %s as it is, and keeps the answers", async (code, status, message) => {
    fakeApi({
      "GET /experts/me/application": { status: 200, body: draft },
      "POST /experts/me/application": { status, body: { code, message } },
    });
    renderScreen(<ApplicationTab />, { auth });
    await screen.findByRole("form", { name: "Your application" });
    fillIn();
    await userEvent.click(screen.getByRole("checkbox", { name: "I agree to the expert standards" }));
    await userEvent.click(screen.getByRole("button", { name: "Submit application" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Your application was not sent");
    expect(alert).toHaveTextContent(message);
    expect(field(/Your expertise/)).toHaveValue("  Brand partnerships ");
  });

  it("on changes requested, starts from the answers sent last and asks for the standards to be agreed to again", async () => {
    const asked: ApplicationReply = { ...sent, status: "changes_requested", revision: 2, reason: "Please add your portfolio." };
    const calls = fakeApi({
      "GET /experts/me/application": { status: 200, body: asked },
      "POST /experts/me/application": { status: 201, body: { ...sent, revision: 3 } },
    });
    renderScreen(<ApplicationTab />, { auth });
    await screen.findByRole("form", { name: "Your application" });
    expect(screen.getByRole("status")).toHaveTextContent("From our team: Please add your portfolio.");
    expect(field(/Your expertise/)).toHaveValue("Brand partnerships");
    expect(field(/^Bio/)).toHaveValue(BIO);
    expect(field(/Links to your work/)).toHaveValue("https://maya.example.com\nhttps://linkedin.example.com/maya");
    expect(field(/Years of experience/)).toHaveValue(9);
    expect(screen.getByRole("checkbox", { name: "I agree to the expert standards" })).not.toBeChecked();

    await userEvent.click(screen.getByRole("button", { name: "Resubmit application" }));
    expect(screen.getByText("Please read and agree to the current expert standards.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);

    change(/Links to your work/, "https://maya.example.com\nhttps://portfolio.example.com/maya");
    await userEvent.click(screen.getByRole("checkbox", { name: "I agree to the expert standards" }));
    await userEvent.click(screen.getByRole("button", { name: "Resubmit application" }));
    expect(await screen.findByText("In review — we answer within 2 working days.")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(1);
    expect(writes(calls)[0]!.body).toEqual({
      ...answers,
      links: ["https://maya.example.com", "https://portfolio.example.com/maya"],
    });
  });

  it("when the standards changed on the server since the page loaded, asks for a reload instead of agreeing to an old text", () => {
    renderScreen(<ApplicationView application={{ ...draft, standards_version: "standards-2099-01" }} />, { auth });
    expect(screen.getByText(/Our expert standards have changed since this page was loaded/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Submit application" })).toBeDisabled();
  });
});
