import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as contracts from "../src/index.ts";
import {
  DomainEvent,
  ERASED_LINK,
  ERASED_PERSON_NAME,
  ERASED_TEXT,
  EVENTS_WRITTEN_OUTSIDE_THE_DECIDERS,
  PERSONAL_DATA,
  erasedValue,
  isDeclaredEventType,
  isErasedEmail,
  personalFieldsOf,
  type EventPersonalData,
} from "../src/index.ts";

// The classification of personal data (issue 33.1) is complete and true to the schemas: every string field of every
// event is declared personal or not personal, and every declaration names a field that exists. A new event type, or a
// new string field, fails here until it is declared in contracts/src/personal-data/.

/** What a field of an event's data can hold: a person's text (z.string), or one of a fixed set of codes (z.enum, z.literal). */
type Leaf = "text" | "code";

/** Every string-holding path of a schema: dotted, `[]` for an array's items, as the declarations write them. */
function stringPaths(schema: z.ZodType, path = "", found = new Map<string, Leaf>()): Map<string, Leaf> {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string) => def[key] as z.ZodType;
  const at = (name: string) => (path ? `${path}.${name}` : name);
  switch (def.type) {
    case "string":
      found.set(path, "text");
      break;
    case "enum":
      found.set(path, "code");
      break;
    case "literal":
      if ((def.values as unknown[]).some((v) => typeof v === "string")) found.set(path, "code");
      break;
    case "number":
    case "boolean":
    case "null":
    case "undefined":
    case "bigint":
    case "date":
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      stringPaths(inner("innerType"), path, found);
      break;
    case "pipe": {
      // What is stored is what the pipe takes in (`.transform` and `.pipe(z.email())` keep a string a string).
      const input = inner("in");
      stringPaths(input._zod.def.type === "transform" ? inner("out") : input, path, found);
      break;
    }
    case "array":
      stringPaths(inner("element"), `${path}[]`, found);
      break;
    case "object":
      for (const [name, field] of Object.entries(def.shape as Record<string, z.ZodType>)) stringPaths(field, at(name), found);
      break;
    case "union":
      for (const option of def.options as z.ZodType[]) stringPaths(option, path, found);
      break;
    case "record":
      // Keys of a record are codes or ids here; values may hold text, under a path no declaration can name (so it fails).
      stringPaths(inner("valueType"), `${path}{}`, found);
      break;
    default:
      throw new Error(`${path}: a ${def.type} schema, which this walk does not know: teach it (contracts/test/personal-data.unit.test.ts)`);
  }
  return found;
}

type EventSchema = z.ZodObject<{ type: z.ZodLiteral<string>; data: z.ZodType }>;
const eventSchemas = DomainEvent.options as unknown as readonly EventSchema[];
const typeOf = (schema: EventSchema) => schema.shape.type.value;

/** What is wrong with an event type's declaration, in words naming the event and the field; empty when it is right. */
function problemsOf(schema: EventSchema, declaration: EventPersonalData | undefined): string[] {
  const type = typeOf(schema);
  if (!declaration) return [`${type}: no declaration (contracts/src/personal-data/)`];
  const paths = stringPaths(schema.shape.data);
  const texts = [...paths].filter(([, leaf]) => leaf === "text").map(([path]) => path);
  const personalFields = declaration.personal.map((f) => f.field);
  const declared = [...personalFields, ...declaration.notPersonal];
  const problems: string[] = [];
  for (const path of texts) {
    if (!declared.includes(path)) problems.push(`${type}: ${path} is a string field declared neither personal nor not personal`);
  }
  for (const path of declared) {
    if (paths.get(path) === "code") problems.push(`${type}: ${path} holds fixed codes (enum or literal): do not declare it`);
    else if (!paths.has(path)) problems.push(`${type}: the declaration names ${path}, which is no field of the event`);
    if (declared.filter((d) => d === path).length > 1) problems.push(`${type}: ${path} is declared twice`);
  }
  for (const field of declaration.personal) {
    const owner = field.owner;
    if ("idIn" in owner && !declaration.notPersonal.includes(owner.idIn)) {
      problems.push(`${type}: ${field.field} belongs to the id in ${owner.idIn}, which is no id field of the event declared not personal`);
    }
    if ("partyNamedBy" in owner && !paths.has(owner.partyNamedBy)) {
      problems.push(`${type}: ${field.field} belongs to the party named by ${owner.partyNamedBy}, which is no field of the event`);
    }
  }
  return [...new Set(problems)];
}

describe("the personal data classification", () => {
  it("declares every event type of every stream, and no type the log does not hold", () => {
    const types = eventSchemas.map(typeOf);
    expect(types.filter((t) => !isDeclaredEventType(t))).toEqual([]);
    expect(Object.keys(PERSONAL_DATA).filter((t) => !types.includes(t))).toEqual([]);
    expect(types.length).toBeGreaterThanOrEqual(76);
  });

  it("walks every event union contracts export (`export const …Event = z.discriminatedUnion`), each one within the log's", () => {
    const folder = fileURLToPath(new URL("../src/", import.meta.url));
    const unions = readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        [...readFileSync(`${folder}${file}`, "utf8").matchAll(/export const (\w+Event) = z\.discriminatedUnion/g)].map((m) => m[1]!),
      );
    expect(unions).toEqual(
      expect.arrayContaining(["CalendarEvent", "ExpertEvent", "SessionEvent", "UserEvent", "PayoutEvent", "ConversationEvent"]),
    );
    const logged = new Set(eventSchemas.map(typeOf));
    for (const name of unions) {
      const union = (contracts as unknown as Record<string, { options: readonly EventSchema[] }>)[name]!;
      expect(
        union.options.map(typeOf).filter((t) => !logged.has(t)),
        `${name} types outside DomainEvent`,
      ).toEqual([]);
    }
  });

  it.each(eventSchemas.map((schema) => [typeOf(schema), schema] as const))(
    "%s: every string field is declared one way, and every declaration names a field",
    (type, schema) => {
      expect(problemsOf(schema, PERSONAL_DATA[type as keyof typeof PERSONAL_DATA])).toEqual([]);
    },
  );

  it("fails, naming the event and the field, when a new event adds a string field without declaring it", () => {
    const added = z.object({
      type: z.literal("GiftCardSent"),
      data: z.object({
        bookingId: z.string(),
        message: z.string().trim().max(500),
        recipient: z.object({ name: z.string().nullable(), emails: z.array(z.string().pipe(z.email())).default([]) }),
        tier: z.enum(["gold", "silver"]),
        amountCents: z.number(),
      }),
    }) as unknown as EventSchema;
    expect(problemsOf(added, undefined)).toEqual(["GiftCardSent: no declaration (contracts/src/personal-data/)"]);
    const partly: EventPersonalData = {
      notPersonal: ["bookingId", "tier", "giftId"],
      personal: [{ field: "message", kind: "text", owner: { idIn: "by" } }],
    };
    expect(problemsOf(added, partly)).toEqual([
      "GiftCardSent: recipient.name is a string field declared neither personal nor not personal",
      "GiftCardSent: recipient.emails[] is a string field declared neither personal nor not personal",
      "GiftCardSent: tier holds fixed codes (enum or literal): do not declare it",
      "GiftCardSent: the declaration names giftId, which is no field of the event",
      "GiftCardSent: message belongs to the id in by, which is no id field of the event declared not personal",
    ]);
  });

  it("reads nested objects, arrays of objects, defaults, nullables and pipes the way the declarations name them", () => {
    const paths = (type: string) =>
      [...stringPaths(eventSchemas.find((s) => typeOf(s) === type)!.shape.data)].map(([p, leaf]) => `${p}:${leaf}`);
    expect(paths("NotesAdded")).toEqual([
      "bookingId:text",
      "notes.summary:text",
      "notes.recap:text",
      "notes.takeaways[]:text",
      "notes.suggestedActions[]:text",
    ]);
    expect(paths("ScheduleSet")).toEqual([
      "expertId:text",
      "timezone:text",
      "slots[].weekday:code",
      "slots[].start_local:text",
      "slots[].end_local:text",
    ]);
    expect(paths("ExpertProfileSaved")).toContain("profile.tags[]:text");
    expect(paths("ExpertProfileSaved")).toContain("profile.profileImage:text");
    expect(paths("ApplicationSubmitted")).toContain("answers.standardsVersion:code");
  });

  it("classifies the fields that were judgement calls as decided", () => {
    const personalOf = (type: keyof typeof PERSONAL_DATA) => PERSONAL_DATA[type].personal.map((f) => f.field);
    // A session's title and prep questions are the expert's product text, also where a booking copies them.
    expect(PERSONAL_DATA.BookingRequested.notPersonal).toEqual(expect.arrayContaining(["sessionTitle", "prepQuestions[]"]));
    expect(PERSONAL_DATA.SessionCreated.notPersonal).toContain("definition.title");
    // An expert's profile describes the person: names, title, bio, tags, photo and the slug made of the name.
    expect(personalOf("ExpertProfileSaved")).toEqual([
      "slug",
      "profile.firstName",
      "profile.lastName",
      "profile.title",
      "profile.bio",
      "profile.tags[]",
      "profile.profileImage",
    ]);
    // Reasons are personal, whoever wrote them; the provider's failure messages and codes are not.
    expect(personalOf("Cancelled")).toEqual(["reason"]);
    expect(personalOf("BookingsPaused")).toEqual(["reason"]);
    expect(personalOf("PaymentFailed")).toEqual([]);
    expect(personalOf("DisputeOpened")).toEqual([]);
    expect(personalOf("JoinLinkSet")).toEqual(["url"]);
    expect(personalOf("Confirmed")).toEqual([]);
  });

  it("keeps what a person wrote with its author, and what an admin wrote about a person with that person", () => {
    const owner = (type: keyof typeof PERSONAL_DATA, field: string) => PERSONAL_DATA[type].personal.find((f) => f.field === field)?.owner;
    expect(owner("PrepSubmitted", "answers[]")).toEqual({ party: "creator" });
    expect(owner("NotesAdded", "notes.summary")).toEqual({ party: "expert" });
    expect(owner("MessageSent", "text")).toEqual({ idIn: "by" });
    expect(owner("ReviewLeft", "text")).toEqual({ idIn: "creatorId" });
    expect(owner("ReviewReplied", "text")).toEqual({ party: "expert" });
    expect(owner("Cancelled", "reason")).toEqual({ partyNamedBy: "by", otherwise: "creator" });
    expect(owner("ReviewHidden", "reason")).toEqual({ party: "creator" });
    expect(owner("ExpertSuspended", "reason")).toEqual({ party: "expert" });
    expect(owner("NoShowSettled", "reason")).toEqual({ partyNamedBy: "absent" });
    expect(owner("UserRegistered", "email")).toEqual({ idIn: "userId" });
  });

  it("declares the events the API writes itself, and every event literal in the source", () => {
    expect(EVENTS_WRITTEN_OUTSIDE_THE_DECIDERS.filter((t) => !isDeclaredEventType(t))).toEqual([]);
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const literals = new Set<string>();
    for (const folder of ["api/src", "engine/src", "event-store/src", "projections/src"]) {
      for (const file of readdirSync(`${root}${folder}`, { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".ts")) continue;
        const source = readFileSync(`${root}${folder}/${file}`, "utf8");
        for (const m of source.matchAll(/\btype:\s*"([A-Z][A-Za-z0-9]*)",\s*data:/g)) literals.add(m[1]!);
      }
    }
    expect(literals.size).toBeGreaterThan(20);
    expect([...literals].filter((t) => !isDeclaredEventType(t))).toEqual([]);
  });

  it("looks up an event type's personal fields, and refuses a type declared nowhere", () => {
    expect(personalFieldsOf("PrepSubmitted")).toEqual([{ field: "answers[]", kind: "text", owner: { party: "creator" } }]);
    expect(personalFieldsOf("SessionPublished")).toEqual([]);
    expect(() => personalFieldsOf("GiftCardSent")).toThrow(/GiftCardSent has no personal data declaration/);
    expect(() => personalFieldsOf("toString")).toThrow(/no personal data declaration/);
  });
});

describe("what an erased person's fields read as", () => {
  const of = (type: keyof typeof PERSONAL_DATA, field: string) => PERSONAL_DATA[type].personal.find((f) => f.field === field)!;

  it('names: the first name reads "Deleted" and the last "user", so a full name reads "Deleted user"', () => {
    const name = `${erasedValue(of("UserRegistered", "firstName"), "u1")} ${erasedValue(of("UserRegistered", "lastName"), "u1")}`;
    expect(name).toBe("Deleted user");
    expect(name).toBe(ERASED_PERSON_NAME);
    expect(
      `${erasedValue(of("ExpertProfileSaved", "profile.firstName"), "u1")} ${erasedValue(of("ExpertProfileSaved", "profile.lastName"), "u1")}`,
    ).toBe(ERASED_PERSON_NAME);
  });

  it("e-mail addresses: an undeliverable address of the owner's id, recognisable as erased", () => {
    const email = erasedValue(of("UserRegistered", "email"), "u1");
    expect(email).toBe("deleted-user-u1@erased.invalid");
    expect(z.email().safeParse(email).success).toBe(true);
    expect(isErasedEmail(email)).toBe(true);
    expect(isErasedEmail("ana@example.com")).toBe(false);
    expect(erasedValue(of("UserRegistered", "email"), "u2")).not.toBe(email);
  });

  it("text reads [erased], links an address that never resolves, a slug stays unique per person", () => {
    expect(erasedValue(of("PrepSubmitted", "answers[]"), "c1")).toBe(ERASED_TEXT);
    expect(ERASED_TEXT).toBe("[erased]");
    expect(erasedValue(of("JoinLinkSet", "url"), "e1")).toBe(ERASED_LINK);
    expect(new URL(ERASED_LINK).hostname.endsWith(".invalid")).toBe(true);
    expect(erasedValue(of("ExpertProfileSaved", "slug"), "e1")).toBe("deleted-user-e1");
    expect(erasedValue(of("ExpertProfileSaved", "slug"), "e2")).toBe("deleted-user-e2");
  });

  it("a field whose schema asks more than the kind's marker gives has its own marker", () => {
    const bio = erasedValue(of("ApplicationSubmitted", "answers.bio"), "e1");
    expect(bio.startsWith(ERASED_TEXT)).toBe(true);
    expect(bio.length).toBeGreaterThanOrEqual(80);
  });
});
