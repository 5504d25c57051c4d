// One look for every mail: what a template says (MailBody) becomes a plain-text part and an HTML
// part. The HTML is a single column of divs with inline styles (mail clients drop <style> and
// external CSS), and every value that came from a person or the log is escaped.

export const PRODUCT_NAME = "Expert Sessions";

export type MailBody = {
  subject: string;
  /** The heading inside the mail (default: the subject). */
  heading?: string;
  /** The line mail clients show next to the subject in a list. */
  preview: string;
  /** The reader's first name; null: "Hi there". */
  firstName: string | null;
  paragraphs: readonly string[];
  /** Something a person wrote, quoted as they wrote it (an expert's question). */
  quote?: string;
  /** Label and value pairs: when, with whom, what was paid. */
  details?: readonly { label: string; value: string }[];
  /** The one thing to do next, a button to the right screen. */
  action: { label: string; url: string };
  /** Small print under the card: why this mail came. */
  footer?: string;
  /** Non-essential mails only: where the reader turns them off. */
  unsubscribeUrl?: string;
};

export type RenderedMail = { subject: string; text: string; html: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text (or a URL) made safe inside HTML content and double-quoted attributes. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const greeting = (firstName: string | null) => `Hi ${firstName?.trim() || "there"},`;

export function renderMail(body: MailBody): RenderedMail {
  return { subject: body.subject, text: textOf(body), html: htmlOf(body) };
}

function textOf(body: MailBody): string {
  const blocks: string[] = [greeting(body.firstName), ...body.paragraphs];
  if (body.quote)
    blocks.push(
      body.quote
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n"),
    );
  if (body.details?.length) blocks.push(body.details.map((d) => `${d.label}: ${d.value}`).join("\n"));
  blocks.push(`${body.action.label}: ${body.action.url}`);
  const small = [body.footer, body.unsubscribeUrl && `To stop reminder mails, open ${body.unsubscribeUrl}`].filter(Boolean);
  if (small.length) blocks.push(`--\n${small.join("\n")}`);
  return `${blocks.join("\n\n")}\n`;
}

const FONT = "-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
const INK = "#1f2933";
const MUTED = "#616e7c";
const ACCENT = "#2f5bea";

const paragraph = (text: string) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.55;color:${INK};">${escapeHtml(text)}</p>`;

function htmlOf(body: MailBody): string {
  const url = escapeHtml(body.action.url);
  const parts: string[] = [
    `<h1 style="margin:0 0 18px;font-size:20px;line-height:1.3;font-weight:700;color:${INK};">${escapeHtml(body.heading ?? body.subject)}</h1>`,
    paragraph(greeting(body.firstName)),
    ...body.paragraphs.map(paragraph),
  ];
  if (body.quote) {
    parts.push(
      `<div style="margin:0 0 16px;padding:6px 14px;border-left:3px solid #cbd2d9;` +
        `font-size:15px;line-height:1.55;color:#3e4c59;white-space:pre-wrap;">${escapeHtml(body.quote)}</div>`,
    );
  }
  if (body.details?.length) {
    const rows = body.details.map(
      (d) =>
        `<div style="margin:6px 0;">` +
        `<div style="font-size:12px;letter-spacing:0.04em;text-transform:uppercase;color:${MUTED};">${escapeHtml(d.label)}</div>` +
        `<div style="font-size:15px;line-height:1.45;font-weight:600;color:${INK};">${escapeHtml(d.value)}</div></div>`,
    );
    parts.push(`<div style="margin:4px 0 22px;padding:10px 16px;background:#f5f7fa;border-radius:6px;">${rows.join("")}</div>`);
  }
  parts.push(
    `<div style="margin:0 0 8px;"><a href="${url}" ` +
      `style="display:inline-block;padding:12px 22px;background:${ACCENT};border-radius:6px;` +
      `color:#ffffff;font-size:15px;font-weight:600;text-decoration:none;">${escapeHtml(body.action.label)}</a></div>`,
    `<p style="margin:18px 0 0;font-size:13px;line-height:1.5;color:${MUTED};">If the button does not work, ` +
      `open this link: <a href="${url}" style="color:${ACCENT};word-break:break-all;">${url}</a></p>`,
  );
  const small = [
    body.footer ? `<p style="margin:0 0 6px;">${escapeHtml(body.footer)}</p>` : "",
    body.unsubscribeUrl
      ? `<p style="margin:0;">Reminders are optional. <a href="${escapeHtml(body.unsubscribeUrl)}" ` +
        `style="color:${MUTED};text-decoration:underline;">Stop reminder mails</a></p>`
      : "",
  ].join("");
  return [
    "<!doctype html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(body.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f0f2f5;font-family:${FONT};color:${INK};">`,
    // The preview line: read by mail clients, never shown in the body.
    `<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(body.preview)}</div>`,
    '<div style="max-width:560px;margin:0 auto;padding:24px 16px;">',
    `<div style="margin:0 0 12px;font-size:14px;font-weight:700;color:#3e4c59;">${PRODUCT_NAME}</div>`,
    `<div style="padding:28px 24px;background:#ffffff;border:1px solid #e4e7eb;border-radius:8px;">${parts.join("")}</div>`,
    `<div style="margin:16px 4px 0;font-size:12px;line-height:1.5;color:#7b8794;">${small}</div>`,
    "</div>",
    "</body>",
    "</html>",
  ].join("\n");
}
