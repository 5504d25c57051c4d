import { describe, expect, it } from "vitest";
import { isReturnPath, returnPathOf } from "../src/return-path.ts";

// Issue 27.4: where sign-in, sign-up and the verification link send a user back to. Only a path on
// this site: anything a browser could read as another host (or a script) would be an open redirect.

describe("return path", () => {
  it.each(["/book-session/s-1", "/book-session/s-1?booking=b-2", "/expert-profile/maya-lind-e1#sessions", "/search", "/"])(
    "accepts the path %j",
    (path) => {
      expect(isReturnPath(path)).toBe(true);
      expect(returnPathOf(path)).toBe(path);
    },
  );

  it.each([
    "//evil.example/book-session/s-1",
    "/\\evil.example",
    "/book-session\\..\\..\\evil",
    "\\\\evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "HTTP://evil.example",
    "javascript:alert(1)",
    "evil.example/book-session/s-1",
    "/\t/evil.example",
    "/\n/evil.example",
    " /book-session/s-1",
    "/book-session/ s-1",
    "/book-session/s\u00ad1",
    "",
    `/${"a".repeat(300)}`,
  ])("refuses %j", (path) => {
    expect(isReturnPath(path)).toBe(false);
    expect(returnPathOf(path)).toBeNull();
  });

  it("reads nothing from what is not a string", () => {
    expect(returnPathOf(undefined)).toBeNull();
    expect(returnPathOf(null)).toBeNull();
    expect(returnPathOf(["/search"])).toBeNull();
  });
});
