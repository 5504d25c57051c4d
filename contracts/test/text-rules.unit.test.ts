import { describe, expect, it } from "vitest";
import { BookingPrepBody, ExpertProfileBody, PersonName, SessionBody, errorBody, parseInput } from "../src/index.ts";

// Issue 26 item 2: one-line text (session titles, people's names, an expert's title, tags, prep
// questions) refuses every control character and the Unicode line and paragraph separators, which
// calendars and mail headers may take for line ends; multi-line text (a bio, a description, prep
// answers) keeps its line feeds (and CRLF, and tabs) but refuses the rest. The refusal has its
// catalogue message.

/** Every C0 and C1 control character, DEL, and LS/PS. */
const CONTROLS = [...Array.from({ length: 32 }, (_, i) => i), 0x7f, ...Array.from({ length: 32 }, (_, i) => 0x80 + i), 0x2028, 0x2029].map(
  (c) => String.fromCharCode(c),
);
const MULTI_LINE_KEEPS = new Set(["\n", "\t"]);
const name = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

function refusedForControls(schema: Parameters<typeof parseInput>[0], input: unknown, field: string) {
  const r = parseInput(schema, input);
  expect(r.ok, `${field} accepted ${JSON.stringify(input)}`).toBe(false);
  if (r.ok) return;
  expect(r.refusal.code).toBe("text_has_control_characters");
  expect(errorBody(r.refusal)).toEqual({
    code: "text_has_control_characters",
    message: "Please remove line breaks and control characters.",
  });
}

const session = { title: "Pricing review", price: 150, length_minutes: 60, prep_question_1: "What is your goal?" };
const profile = { first_name: "Ava", last_name: "Chen", title: "Brand advisor" };

describe("one-line text refuses control characters and line separators", () => {
  it.each(CONTROLS.map((c) => [name(c), c]))(
    "%s inside a session title, a name, an expert's title, a tag or a prep question",
    (_label, c) => {
      refusedForControls(SessionBody, { ...session, title: `Pricing${c}review` }, "session title");
      refusedForControls(SessionBody, { ...session, prep_question_1: `Goal${c}?` }, "prep question");
      refusedForControls(SessionBody, { ...session, ideal_for: [`Found${c}ers`] }, "ideal for");
      refusedForControls(ExpertProfileBody, { ...profile, first_name: `Ava${c}Chen` }, "first name");
      refusedForControls(ExpertProfileBody, { ...profile, last_name: `Ch${c}en` }, "last name");
      refusedForControls(ExpertProfileBody, { ...profile, title: `Brand${c}advisor` }, "expert title");
      refusedForControls(ExpertProfileBody, { ...profile, tags: [`Bra${c}nd`] }, "tag");
      refusedForControls(PersonName, `Cora${c}Quinn`, "sign-up name");
    },
  );

  it("keeps what a person types: accents, emoji, right-to-left text and zero-width joiners", () => {
    for (const text of ["Zoë Ångström", "李小龙", "مرحبا", "👩🏽‍💻 Dev", "O'Brien-Smith"]) {
      expect(parseInput(SessionBody, { ...session, title: text }).ok).toBe(true);
      expect(parseInput(ExpertProfileBody, { ...profile, first_name: text }).ok).toBe(true);
      expect(parseInput(PersonName, text).ok).toBe(true);
    }
  });

  it("trims a stray line break at either end of a name instead of refusing it (pasted text)", () => {
    const r = parseInput(PersonName, "\nCora\r\n");
    expect(r.ok && r.value).toBe("Cora");
  });
});

describe("multi-line text keeps line feeds and tabs, and refuses the other control characters", () => {
  it("a bio, a description and prep answers may hold LF, CRLF and tabs", () => {
    expect(parseInput(ExpertProfileBody, { ...profile, bio: "Line one\nLine two\r\n\tIndented" }).ok).toBe(true);
    expect(parseInput(SessionBody, { ...session, description: "a\nb", session_details: "c\r\nd" }).ok).toBe(true);
    expect(parseInput(BookingPrepBody, { prep_response_1: "a\nb", prep_response_2: "c", prep_response_3: "d\te" }).ok).toBe(true);
  });

  it.each(CONTROLS.filter((c) => !MULTI_LINE_KEEPS.has(c)).map((c) => [name(c), c]))(
    "%s in a bio, a description or a prep answer",
    (_label, c) => {
      refusedForControls(ExpertProfileBody, { ...profile, bio: `Line one${c}Line two` }, "bio");
      refusedForControls(SessionBody, { ...session, description: `a${c}b` }, "description");
      refusedForControls(BookingPrepBody, { prep_response_1: `a${c}b`, prep_response_2: "c", prep_response_3: "d" }, "prep answer");
    },
  );
});
