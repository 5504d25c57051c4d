import { describe, expect, it } from "vitest";
import { csvField, csvLine, spreadsheetText } from "../src/csv.ts";

// What an admin's spreadsheet makes of an exported cell: a user's text stays text.

describe("a CSV cell opened in a spreadsheet", () => {
  it("shows text that starts like a formula as text (a leading ')", () => {
    const formulas = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-1+1", "@SUM(A1:A2)", "\t=1+1", "\r=1+1", "\n=1+1", "\0=1+1"];
    const fullWidth = ["＝1+1", "＋1", "－1", "＠SUM(1)"];
    for (const value of [...formulas, ...fullWidth]) expect(spreadsheetText(value), JSON.stringify(value)).toBe(`'${value}`);
  });

  it("leaves other text and plain negative numbers as they are", () => {
    for (const value of ["Ada Lovelace", "a=1", " =1", "'quoted", "12", "-12", "-0.5", ""])
      expect(spreadsheetText(value), JSON.stringify(value)).toBe(value);
    for (const value of ["-1e3", "-1-1", "--1", "-1.", "-.5"]) expect(spreadsheetText(value), JSON.stringify(value)).toBe(`'${value}`);
  });

  it("quotes a field holding a separator, a quote, a line break or a tab, after defusing it", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csvField("\r=1+1")).toBe('"\'\r=1+1"');
    expect(csvField("\t=1+1")).toBe('"\'\t=1+1"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField(null)).toBe("");
  });

  it("writes a line of fields, CRLF-terminated", () => {
    expect(csvLine(["Ada", null, "-1+1", "-5"])).toBe("Ada,,'-1+1,-5\r\n");
  });
});
