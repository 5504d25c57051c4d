import { describe, expect, it } from "vitest";
import { isMeetingLink, JoinLinkBody, meetingLinkHost, MeetingLink, parseInput, refusalMessage } from "../src/index.ts";

// A join link is clicked by the creator a few minutes before a paid session: what is stored is
// the address browsers will open, written so that its host cannot pass for another one.

const stored = (url: string) => {
  const r = parseInput(MeetingLink, url);
  if (!r.ok) throw new Error(`refused ${JSON.stringify(url)}: ${r.refusal.code}`);
  return r.value;
};
const refused = (url: string) => {
  const r = parseInput(MeetingLink, url);
  expect(r.ok, `expected ${JSON.stringify(url)} to be refused`).toBe(false);
  if (!r.ok) {
    expect(r.refusal.code).toBe("join_link_invalid");
    expect(refusalMessage(r.refusal)).toBe("Please enter a meeting link that starts with https://, without spaces.");
  }
};

describe("a meeting link as stored", () => {
  it("is the address as browsers read it: a look-alike Cyrillic host is stored in punycode", () => {
    // "zоom.us" with a Cyrillic о (U+043E): reads as zoom.us, is another host.
    const href = stored("https://z\u043eom.us/j/1");
    expect(href).toBe("https://xn--zom-sed.us/j/1");
    expect(href).not.toContain("zoom.us");
    expect(meetingLinkHost(href)).toBe("xn--zom-sed.us");
  });

  it("an ordinary link is kept as it was typed, only put in its standard form", () => {
    expect(stored(" https://Meet.Jit.si/Deck-Review ")).toBe("https://meet.jit.si/Deck-Review");
    expect(stored("https://zoom.us")).toBe("https://zoom.us/");
    expect(stored("https://meet.example.com:443/r?pwd=a b".replace(" ", "%20"))).toBe("https://meet.example.com/r?pwd=a%20b");
  });

  it("the request body stores the same form", () => {
    const r = parseInput(JoinLinkBody, { url: "https://z\u043eom.us/j/1" });
    expect(r.ok && r.value.url).toBe("https://xn--zom-sed.us/j/1");
  });
});

describe("a meeting link that hides where it goes is refused", () => {
  it.each([
    ["a backslash before an @ (one parser reads host zoom.us, another evil.test)", "https://zoom.us\\@evil.test/x"],
    ["a backslash for a slash", "https:\\\\evil.test\\x"],
    ["a zero-width space in the host", "https://zo\u200bom.us/j/1"],
    ["a zero-width joiner", "https://zoom.us/j/1\u200d"],
    ["a soft hyphen, which the host drops silently", "https://zo\u00adom.us/j/1"],
    ["a right-to-left override", "https://zoom.us/j/\u202e1gpj.exe"],
    ["a left-to-right mark", "https://\u200ezoom.us/j/1"],
    ["a bidi isolate", "https://zoom.us/\u2066j\u2069/1"],
    ["a word joiner", "https://zoom\u2060.us/j/1"],
    ["a byte order mark", "https://zoom.us/\ufeffj/1"],
    ["a Hangul filler (invisible)", "https://zoom.us/j/\u3164"],
    ["a variation selector", "https://zoom.us/j\ufe0f/1"],
    ["a tag character", "https://zoom.us/j/1\u{e0041}"],
    ["a tab, which browsers drop", "https://zo\tom.us/j/1"],
    ["a control character", "https://zoom.us/j/\u00071"],
  ])("%s", (_why, url) => {
    refused(url);
    expect(isMeetingLink(url)).toBe(false);
  });

  it("and, as before, anything but https with a host and no credentials", () => {
    for (const url of [
      "http://zoom.us/j/1",
      "javascript:alert(1)",
      "https://user:pw@zoom.us/j/1",
      "https://zoom.us@evil.test/x",
      "https://",
      "zoom.us/j/1",
    ])
      refused(url);
  });

  it("the host shown beside a link is the one browsers go to", () => {
    expect(meetingLinkHost("https://meet.jit.si/room")).toBe("meet.jit.si");
    expect(meetingLinkHost("https://xn--zom-sed.us/j/1")).toBe("xn--zom-sed.us");
    // A link stored before links were normalised still shows its real host.
    expect(meetingLinkHost("https://z\u043eom.us/j/1")).toBe("xn--zom-sed.us");
    expect(meetingLinkHost("not a link")).toBeNull();
  });
});
