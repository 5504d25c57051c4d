import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { spreadsheetText } from "@booking/contracts";
import { App, resources } from "../src/app.tsx";
import { FORMULA, serverCsv } from "./console-fakes.ts";

// Every list the console registers, exported: a name or title a user typed as a formula must open
// in the admin's spreadsheet as text. Each list is shown as an admin sees it (the App, its route,
// its toolbar) with one hostile record, its Export button clicked and the file it saves read.
// Each list is the whole console in jsdom: seconds apiece on a loaded machine, hence the timeouts.

vi.mock("../src/data-provider.ts", async (original) => {
  const { fakeDataProvider } = await import("./console-fakes.ts");
  return { ...(await original<object>()), dataProvider: fakeDataProvider };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});
// The dev mailbox is a resource only when the API keeps one: here it does.
vi.mock("../src/mailbox/index.ts", async (original) => ({ ...(await original<object>()), devMailboxShown: () => Promise.resolve(true) }));

/** The resources' names, as App registers them for an admin. */
function registeredNames(tree: ReactNode): string[] {
  const fragment = tree as ReactElement<{ children: ReactNode }>;
  return Children.toArray(fragment.props.children)
    .filter(isValidElement)
    .map((resource) => (resource.props as { name: string }).name);
}

const registered = registeredNames(await resources("admin"));

/** How a list exports: in the browser with the console's exporter, by the API's export.csv, or not at all. */
type ExportWay = "console" | "server" | "none";
const exportWays: Record<string, ExportWay> = { "terms-acceptances": "server", "early-access": "server", projections: "none" };

/** RFC 4180 rows: quoted fields may hold separators, quotes ("") and line breaks. */
function csvRows(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i]!;
    if (quoted && c === '"' && csv[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== "," && c !== "\r" && c !== "\n")) field += c;
    else if (c === ",") endField();
    else if (c === "\n") {
      endField();
      rows.push(row);
      row = [];
    }
  }
  if (field || row.length) endField();
  if (row.length) rows.push(row);
  return rows;
}

/** A saved file's text (jsdom's Blob has no text()). */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** Files the console saved: a link to a blob URL, clicked with a download name. */
const saved: { name: string; blob: Blob }[] = [];

const { createObjectURL, revokeObjectURL } = URL;

beforeEach(() => {
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:file-${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.getAttribute("href") ?? "");
    if (blob && this.download) saved.push({ name: this.download, blob });
  });
});

afterEach(() => {
  cleanup();
  saved.length = 0;
  serverCsv.mockClear();
  localStorage.clear();
  vi.restoreAllMocks();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  window.location.hash = "";
});

/** The resource's list, shown with its record (so a list that failed to render cannot pass for one without Export). */
async function showList(resource: string): Promise<void> {
  window.location.hash = `#/${resource}`;
  render(<App />);
  await waitFor(() => expect(screen.getAllByRole("row").length).toBeGreaterThan(1), { timeout: 10_000 });
}

describe("the console's lists, exported", () => {
  it("registers the lists this test expects (the dev mailbox included)", () => {
    const expected = ["bookings", "users", "experts", "sessions", "events", "reviews", "refunds", "mailbox", ...Object.keys(exportWays)];
    expect(registered).toEqual(expect.arrayContaining(expected));
  });

  it.each(registered)(
    "%s: its export opens in a spreadsheet as text, not formulas",
    async (resource) => {
      await showList(resource);
      const consoleExport = screen.queryByRole("button", { name: "Export" });
      const serverExport = screen.queryByRole("button", { name: "Export CSV" });
      const way = exportWays[resource] ?? "console";

      if (way === "none") {
        expect(consoleExport).toBeNull();
        expect(serverExport).toBeNull();
      } else if (way === "server") {
        // The API writes the file with contracts' csvField (api/test: early-access, admin): the console only asks for it.
        expect(consoleExport).toBeNull();
        fireEvent.click(serverExport!);
        await waitFor(() => expect(serverCsv).toHaveBeenCalledWith(resource, expect.objectContaining({ filter: expect.any(Object) })));
      } else {
        expect(serverExport).toBeNull();
        fireEvent.click(consoleExport!);
        await waitFor(() => expect(saved).toHaveLength(1));
        const cells = csvRows(await textOf(saved[0]!.blob)).flat();
        expect(cells.filter((cell) => spreadsheetText(cell) !== cell)).toEqual([]);
        // The typed text is there, as text: the export did write the record.
        expect(cells).toContain(`'${FORMULA}`);
        expect(saved[0]!.name).toMatch(new RegExp(`^${resource}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      }
    },
    60_000,
  );
});
