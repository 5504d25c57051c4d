import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ERASED_APPLICATION_BIO, ERASED_LINK, EXPERT_STANDARDS_VERSION, type DomainEvent, type EventOf } from "@booking/contracts";
import {
  DataKeyError,
  EnvelopeError,
  InMemoryKeyRing,
  PersonalDataOwnerError,
  isEnvelope,
  masterKeyFromSecret,
  newDataKey,
  openEvent,
  sealEvent,
  unwrapKey,
  wrapKey,
  type EventParties,
  type KeyRing,
} from "../src/index.ts";

// The envelope's rules (issue 33.1): its form, what fails to open and how, erased owners, plain text stored before
// sealing began, whose key seals which field, and the data keys wrapped by the master key.

const CREATOR = "c-7f3a";
const EXPERT = "u-91e2";
const parties = { creator: CREATOR, expert: EXPERT };
const booking = { bookingId: "b-1" };

const prep: EventOf<"PrepSubmitted"> = {
  type: "PrepSubmitted",
  data: { ...booking, answers: ["Reach 50k subscribers", "Stuck since March"] },
};
const notes: EventOf<"NotesAdded"> = {
  type: "NotesAdded",
  data: { ...booking, notes: { summary: "Film the starter live", recap: "", takeaways: ["Post on Sundays"], suggestedActions: [] } },
};
const cancelled = (by: "creator" | "expert" | "admin" | "system", reason = "My mother is in hospital"): EventOf<"Cancelled"> => ({
  type: "Cancelled",
  data: { ...booking, by, reason, refundCents: 0 },
});
const registered: EventOf<"UserRegistered"> = {
  type: "UserRegistered",
  data: { userId: CREATOR, email: "anastasia@example.com", role: "creator", firstName: "Anastasia", lastName: "Okonkwo" },
};

const keyRing = () => new InMemoryKeyRing(randomBytes(32));
/** A base64url part with one byte changed. */
const flipped = (part: string) => {
  const bytes = Buffer.from(part, "base64url");
  bytes[0] = bytes[0]! ^ 0x01;
  return bytes.toString("base64url");
};

describe("the envelope", () => {
  it("is pd1:<owner>:<iv>.<tag>.<ciphertext>, the owner in clear, a fresh IV every time", async () => {
    const keys = keyRing();
    const a = await sealEvent(cancelled("creator"), keys, parties);
    const b = await sealEvent(cancelled("creator"), keys, parties);
    expect(a.data.reason).toMatch(/^pd1:c-7f3a:[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(isEnvelope(a.data.reason)).toBe(true);
    expect(a.data.reason).not.toBe(b.data.reason);
    expect({ ...a.data, reason: "" }).toEqual({ ...cancelled("creator").data, reason: "" });
  });

  it("leaves an event without personal text as it is, and non-string, null, absent and empty values too", async () => {
    const keys = keyRing();
    const resumed: DomainEvent = { type: "BookingsResumed", data: { expertId: EXPERT, by: "a-1" } };
    expect(await sealEvent(resumed, keys)).toBe(resumed);
    const nameless: DomainEvent = { ...registered, data: { ...registered.data, firstName: null, lastName: null } };
    expect((await sealEvent(nameless, keys)).data).toMatchObject({ firstName: null, lastName: null, role: "creator" });
    const noReason: DomainEvent = { type: "ExpertVerified", data: { expertId: EXPERT, by: "a-1" } };
    expect(await sealEvent(noReason, keys)).toBe(noReason);
    expect((await sealEvent(cancelled("creator", ""), keys, parties)).data.reason).toBe("");
  });

  it("seals every item of an array and every nested field, and opens them back", async () => {
    const keys = keyRing();
    const sealed = await sealEvent(notes, keys, parties);
    expect(sealed.data.notes.summary.startsWith(`pd1:${EXPERT}:`)).toBe(true);
    expect(sealed.data.notes.takeaways[0]!.startsWith(`pd1:${EXPERT}:`)).toBe(true);
    expect(sealed.data.notes.recap).toBe("");
    expect(await openEvent(sealed, keys)).toEqual(notes);
    expect(notes.data.notes.summary).toBe("Film the starter live");
  });

  it("keeps what else a stored event carries (its id, position, metadata)", async () => {
    const keys = keyRing();
    const stored = { eventId: "e-1", streamId: "calendar-u-91e2", version: 7, ...prep, metadata: { at: "2026-03-01T00:00:00.000Z" } };
    const sealed = await sealEvent(stored, keys, parties);
    expect(sealed).toMatchObject({ eventId: "e-1", streamId: "calendar-u-91e2", version: 7, metadata: stored.metadata });
    expect(await openEvent(sealed, keys)).toEqual(stored);
  });
});

describe("an envelope altered or moved", () => {
  const sealedPrep = async () => {
    const keys = keyRing();
    return { keys, sealed: await sealEvent(prep, keys, parties) };
  };
  const withAnswer = (event: EventOf<"PrepSubmitted">, i: number, value: string): EventOf<"PrepSubmitted"> => ({
    ...event,
    data: { ...event.data, answers: event.data.answers.map((a, j) => (j === i ? value : a)) },
  });

  it.each([
    ["its ciphertext", (iv: string, tag: string, body: string) => [iv, tag, flipped(body)]],
    ["its tag", (iv: string, tag: string, body: string) => [iv, flipped(tag), body]],
    ["its IV", (iv: string, tag: string, body: string) => [flipped(iv), tag, body]],
  ])("fails to open when a byte of %s changed, naming the event, the field and the owner", async (_part, change) => {
    const { keys, sealed } = await sealedPrep();
    const [head, parts] = [sealed.data.answers[0]!.slice(0, "pd1:c-7f3a:".length), sealed.data.answers[0]!.slice("pd1:c-7f3a:".length)];
    const [iv, tag, body] = parts.split(".") as [string, string, string];
    const altered = withAnswer(sealed, 0, `${head}${change(iv, tag, body).join(".")}`);
    await expect(openEvent(altered, keys)).rejects.toThrow(EnvelopeError);
    await expect(openEvent(altered, keys)).rejects.toThrow("PrepSubmitted.answers[0]: the envelope of c-7f3a does not open");
  });

  it("fails to open when its owner's id is changed to another person's", async () => {
    const { keys, sealed } = await sealedPrep();
    await keys.keyFor("c-other", true);
    await expect(openEvent(withAnswer(sealed, 0, sealed.data.answers[0]!.replace(CREATOR, "c-other")), keys)).rejects.toThrow(
      /the envelope of c-other does not open/,
    );
  });

  it("fails to open when cut short", async () => {
    const { keys, sealed } = await sealedPrep();
    await expect(openEvent(withAnswer(sealed, 1, sealed.data.answers[1]!.slice(0, 30)), keys)).rejects.toThrow(
      "PrepSubmitted.answers[1]: a malformed envelope (cut short or altered)",
    );
  });

  it("fails to open when moved to another place in the array", async () => {
    const { keys, sealed } = await sealedPrep();
    const swapped = { ...sealed, data: { ...sealed.data, answers: [sealed.data.answers[1]!, sealed.data.answers[0]!] } };
    await expect(openEvent(swapped, keys)).rejects.toThrow(/PrepSubmitted\.answers\[0\]/);
  });

  it("fails to open when moved to another field of the event", async () => {
    const keys = keyRing();
    const sealed = await sealEvent(notes, keys, parties);
    const moved = { ...sealed, data: { ...sealed.data, notes: { ...sealed.data.notes, recap: sealed.data.notes.summary } } };
    await expect(openEvent(moved, keys)).rejects.toThrow(/NotesAdded\.notes\.recap/);
  });

  it("fails to open when moved to the same field of another event type", async () => {
    const keys = keyRing();
    const sealed = await sealEvent(cancelled("creator"), keys, parties);
    const declined: DomainEvent = {
      type: "RescheduleDeclined",
      data: { ...booking, from: "2026-03-03T10:00:00.000Z", to: "2026-03-04T10:00:00.000Z", by: "creator", reason: sealed.data.reason },
    };
    await expect(openEvent(declined, keys)).rejects.toThrow(/RescheduleDeclined\.reason: the envelope of c-7f3a does not open/);
  });
});

describe("an erased owner's fields", () => {
  it("open as markers, never as an error, while the other party's still open", async () => {
    const keys = keyRing();
    const sealed = [await sealEvent(prep, keys, parties), await sealEvent(notes, keys, parties)] as const;
    keys.erase(CREATOR);
    expect((await openEvent(sealed[0], keys)).data.answers).toEqual(["[erased]", "[erased]"]);
    expect(await openEvent(sealed[1], keys)).toEqual(notes);
  });

  it("open as markers even when altered: without the key there is nothing to check, and nothing to show", async () => {
    const keys = keyRing();
    const sealed = await sealEvent(prep, keys, parties);
    keys.erase(CREATOR);
    const altered = { ...sealed, data: { ...sealed.data, answers: [sealed.data.answers[0]!.replace(/.$/, "A"), "plain"] } };
    expect((await openEvent(altered, keys)).data.answers).toEqual(["[erased]", "plain"]);
  });

  it('follow the redaction rules: "Deleted" "user" for names, an undeliverable address, [erased] for text, a dead link', async () => {
    const keys = keyRing();
    const profile: EventOf<"ExpertProfileSaved"> = {
      type: "ExpertProfileSaved",
      data: {
        expertId: EXPERT,
        userId: EXPERT,
        slug: "bartholomew-nakashima-u91e2",
        published: true,
        profile: {
          firstName: "Bartholomew",
          lastName: "Nakashima",
          title: "Growth coach",
          bio: null,
          tags: ["thumbnails"],
          profileImage: "/p.png",
        },
      },
    };
    const applied: EventOf<"ApplicationSubmitted"> = {
      type: "ApplicationSubmitted",
      data: {
        expertId: EXPERT,
        by: EXPERT,
        at: "2026-03-01T00:00:00.000Z",
        answers: {
          expertise: "Thumbnails",
          title: "Coach",
          bio: "b".repeat(90),
          links: ["https://example.com/bartholomew"],
          yearsOfExperience: 3,
          creatorsCanExpect: "Honesty",
          standardsVersion: EXPERT_STANDARDS_VERSION,
        },
      },
    };
    const sealed = [await sealEvent(registered, keys), await sealEvent(profile, keys), await sealEvent(applied, keys, parties)] as const;
    keys.erase(CREATOR);
    keys.erase(EXPERT);
    expect((await openEvent(sealed[0], keys)).data).toEqual({
      ...registered.data,
      email: "deleted-user-c-7f3a@erased.invalid",
      firstName: "Deleted",
      lastName: "user",
    });
    expect((await openEvent(sealed[1], keys)).data).toEqual({
      ...profile.data,
      slug: "deleted-user-u-91e2",
      profile: { firstName: "Deleted", lastName: "user", title: "[erased]", bio: null, tags: ["[erased]"], profileImage: ERASED_LINK },
    });
    const answers = (await openEvent(sealed[2], keys)).data.answers;
    expect(answers).toMatchObject({ expertise: "[erased]", bio: ERASED_APPLICATION_BIO, links: [ERASED_LINK], yearsOfExperience: 3 });
  });

  it("are stored as markers when written after the erasure, and the person never gets a key again", async () => {
    const keys = keyRing();
    keys.erase(CREATOR);
    const sealed = await sealEvent(prep, keys, parties);
    expect(sealed.data.answers).toEqual(["[erased]", "[erased]"]);
    expect(keys.wrappedKeyOf(CREATOR)).toBeUndefined();
    expect(await keys.keyFor(CREATOR, true)).toBeNull();
  });
});

describe("plain text stored before sealing began", () => {
  it("opens as itself, beside sealed fields in the same store and the same event", async () => {
    const keys = keyRing();
    expect(await openEvent(prep, keys)).toEqual(prep);
    const sealed = await sealEvent(notes, keys, parties);
    const mixed = { ...sealed, data: { ...sealed.data, notes: { ...sealed.data.notes, takeaways: ["Plain, from before"] } } };
    expect((await openEvent(mixed, keys)).data.notes).toEqual({ ...notes.data.notes, takeaways: ["Plain, from before"] });
  });

  it("opens as itself even when it begins like an envelope, unless it is one's beginning (pd1:<id>:)", async () => {
    const keys = keyRing();
    const typed = { ...prep, data: { ...prep.data, answers: ["pd1: my first point", "pd1:"] } };
    expect(await openEvent(typed, keys)).toEqual(typed);
  });

  it("is sealed by sealing the event again, and sealing a sealed event changes nothing (a migration may run twice)", async () => {
    const keys = keyRing();
    const once = await sealEvent(prep, keys, parties);
    const twice = await sealEvent(once, keys, parties);
    expect(twice.data).toEqual(once.data);
    const half = { ...once, data: { ...once.data, answers: [once.data.answers[0]!, "Plain, from before"] } };
    const migrated = await sealEvent(half, keys, parties);
    expect(migrated.data.answers[0]).toBe(once.data.answers[0]);
    expect(isEnvelope(migrated.data.answers[1]!)).toBe(true);
    expect((await openEvent(migrated, keys)).data.answers).toEqual(["Reach 50k subscribers", "Plain, from before"]);
  });

  it("sealed for another owner (the owner's rule changed between two runs) stays as it was sealed, and opens", async () => {
    const keys = keyRing();
    const byAdmin = await sealEvent(cancelled("admin"), keys, parties);
    const nowByExpert = { ...byAdmin, data: { ...byAdmin.data, by: "expert" as const } };
    const again = await sealEvent(nowByExpert, keys, parties);
    expect(again.data.reason).toBe(byAdmin.data.reason);
    expect((await openEvent(again, keys)).data.reason).toBe("My mother is in hospital");
  });

  it("that merely looks like an envelope is sealed like any text, and reads back as typed", async () => {
    const keys = keyRing();
    const lookalike = `pd1:${CREATOR}:${"A".repeat(16)}.${"B".repeat(22)}.Cg`;
    const typed = { ...prep, data: { ...prep.data, answers: [lookalike, "pd1: my first point"] } };
    const sealed = await sealEvent(typed, keys, parties);
    expect(sealed.data.answers[0]).not.toBe(lookalike);
    expect(await openEvent(sealed, keys)).toEqual(typed);
  });
});

describe("whose key seals a field", () => {
  const ownerOf = async (event: DomainEvent, given: EventParties = parties) => {
    const sealed = JSON.stringify((await sealEvent(event, keyRing(), given)).data);
    return [...sealed.matchAll(/pd1:([A-Za-z0-9_-]+):/g)].map((m) => m[1]);
  };

  it("a reason: the party who wrote it; an admin's or the system's, the booking's creator", async () => {
    expect(await ownerOf(cancelled("creator"))).toEqual([CREATOR]);
    expect(await ownerOf(cancelled("expert"))).toEqual([EXPERT]);
    expect(await ownerOf(cancelled("admin"))).toEqual([CREATOR]);
    expect(await ownerOf(cancelled("system", "payment_timeout"))).toEqual([CREATOR]);
  });

  it("an id in the event: the user it names; a party: the one the writer gives", async () => {
    expect(await ownerOf(registered, {})).toEqual([CREATOR, CREATOR, CREATOR]);
    const message: DomainEvent = {
      type: "MessageSent",
      data: { ...booking, messageId: "m-1", seq: 1, by: EXPERT, role: "expert", text: "Hi" },
    };
    expect(await ownerOf(message, {})).toEqual([EXPERT]);
    expect(await ownerOf(notes)).toEqual([EXPERT, EXPERT]);
    const settled: DomainEvent = {
      type: "NoShowSettled",
      data: { ...booking, absent: "creator", outcome: "creator_no_show", refundCents: 0, by: "a-1", reason: "She never came" },
    };
    expect(await ownerOf(settled)).toEqual([CREATOR]);
  });

  it("refuses to store a personal field whose owner it cannot tell, naming the event and the field", async () => {
    const keys = keyRing();
    await expect(sealEvent(prep, keys)).rejects.toThrow(PersonalDataOwnerError);
    await expect(sealEvent(prep, keys, { expert: EXPERT })).rejects.toThrow(
      "PrepSubmitted.answers[0]: its owner, the creator, was not given",
    );
    await expect(sealEvent(cancelled("admin"), keys, { expert: EXPERT })).rejects.toThrow(
      /Cancelled\.reason: its owner, the party by names/,
    );
    await expect(sealEvent(cancelled("admin", ""), keys, {})).resolves.toEqual(cancelled("admin", ""));
    await expect(sealEvent(prep, keys, { creator: "c:1" })).rejects.toThrow(/is not an id a data key can be kept under/);
  });

  it("refuses an event type with no declaration, writing and reading", async () => {
    const unknown = { type: "GiftCardSent", data: { message: "Happy birthday" } };
    await expect(sealEvent(unknown, keyRing())).rejects.toThrow(/GiftCardSent has no personal data declaration/);
    await expect(openEvent(unknown, keyRing())).rejects.toThrow(/GiftCardSent has no personal data declaration/);
  });

  it("asks the key ring once per owner for all the fields of an event", async () => {
    const inner = keyRing();
    const asked: string[] = [];
    const counting: KeyRing = { keyFor: (owner, create) => (asked.push(`${owner}:${create}`), inner.keyFor(owner, create)) };
    const sealed = await sealEvent(registered, counting);
    await openEvent(sealed, counting);
    expect(asked).toEqual([`${CREATOR}:true`, `${CREATOR}:false`]);
  });
});

describe("data keys", () => {
  const master = randomBytes(32);

  it("wrap under the master key and unwrap to the same 32 bytes", () => {
    const key = newDataKey();
    expect(key).toHaveLength(32);
    const wrapped = wrapKey(CREATOR, key, master);
    expect(wrapped).toMatch(/^dk1:[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(wrapped.includes(key.toString("base64url"))).toBe(false);
    expect(unwrapKey(CREATOR, wrapped, master).equals(key)).toBe(true);
  });

  it("do not unwrap under another master key, for another person, or altered", () => {
    const wrapped = wrapKey(CREATOR, newDataKey(), master);
    expect(() => unwrapKey(CREATOR, wrapped, randomBytes(32))).toThrow(DataKeyError);
    expect(() => unwrapKey(EXPERT, wrapped, master)).toThrow(`The data key of ${EXPERT} does not unwrap`);
    expect(() => unwrapKey(CREATOR, `${wrapped.slice(0, -2)}AA`, master)).toThrow(DataKeyError);
    expect(() => unwrapKey(CREATOR, "not a key", master)).toThrow(DataKeyError);
  });

  it("make a wrong master key an error when reading, never an erasure", async () => {
    const keys = new InMemoryKeyRing(master);
    const sealed = await sealEvent(prep, keys, parties);
    const misconfigured = new InMemoryKeyRing(randomBytes(32));
    misconfigured.restoreWrappedKey(CREATOR, keys.wrappedKeyOf(CREATOR)!);
    await expect(openEvent(sealed, misconfigured)).rejects.toThrow(/wrong master key \(DATA_KEY_SECRET\)/);
  });

  it("come from a master key derived from the configured secret: 32 bytes, the same every time, refused when short", () => {
    const secret = randomBytes(48).toString("base64url");
    expect(masterKeyFromSecret(secret)).toHaveLength(32);
    expect(masterKeyFromSecret(secret).equals(masterKeyFromSecret(secret))).toBe(true);
    expect(masterKeyFromSecret(secret).equals(masterKeyFromSecret(`${secret}x`))).toBe(false);
    expect(() => masterKeyFromSecret("short")).toThrow("DATA_KEY_SECRET must be at least 32 characters");
  });

  it("are kept wrapped in the key ring, and gone once erased", async () => {
    const keys = new InMemoryKeyRing(master);
    expect(await keys.keyFor(CREATOR, false)).toBeNull();
    const key = await keys.keyFor(CREATOR, true);
    expect(unwrapKey(CREATOR, keys.wrappedKeyOf(CREATOR)!, master).equals(key!)).toBe(true);
    expect((await keys.keyFor(CREATOR, false))!.equals(key!)).toBe(true);
    keys.erase(CREATOR);
    expect(keys.wrappedKeyOf(CREATOR)).toBeUndefined();
    expect(await keys.keyFor(CREATOR, false)).toBeNull();
  });
});
