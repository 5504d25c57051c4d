import { DateTime } from "luxon";
import type { Booking, SessionNotes } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { saveFile } from "../shared/save-file.ts";

/** Takeaways and actions are typed one per line. */
export const linesOf = (text: string) =>
  text
    .split("\n")
    .map((l) => l.replace(/^\s*[-*•]\s*/, "").trim())
    .filter(Boolean);

export const NOTES_SUMMARY_REQUIRED = "Please add a session summary.";

/** The notes as a Markdown document, for Download Notes. */
export function notesDocument(
  booking: Pick<Booking, "session_title" | "creator_name" | "expert_name" | "scheduled_time" | "length_minutes">,
  notes: SessionNotes,
): string {
  const date = localMoment(booking.scheduled_time);
  const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join("\n") : "_None_");
  return [
    `# Session Notes: ${booking.session_title}`,
    "",
    `- Client: ${booking.creator_name ?? "Creator"}`,
    `- Expert: ${booking.expert_name ?? "Expert"}`,
    `- Date: ${date} (${booking.length_minutes} minutes)`,
    "",
    "## Summary",
    notes.summary,
    "",
    "## Session Recap",
    notes.recap || "_None_",
    "",
    "## Key Takeaways",
    list(notes.takeaways),
    "",
    "## Suggested Actions",
    notes.suggested_actions.length ? notes.suggested_actions.map((a) => `- [ ] ${a}`).join("\n") : "_None_",
    "",
  ].join("\n");
}

export function notesFileName(booking: Pick<Booking, "scheduled_time" | "session_title">): string {
  const day = DateTime.fromISO(booking.scheduled_time).toISODate() ?? "session";
  const title =
    booking.session_title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "session";
  return `session-notes-${title}-${day}.md`;
}

/** Save a text file through the browser's download. */
export function downloadText(name: string, text: string): void {
  saveFile(new Blob([text], { type: "text/markdown;charset=utf-8" }), name);
}
