import type { MailboxListItem, MailboxMessageReply } from "@booking/contracts";

// The walks read mail where a developer does: the dev mailbox (no SMTP_URL), through the console's
// API as an admin (GET /api/v1/admin/mailbox, then the message). Every walk that needs a signed-in
// account gets it the way a person does: sign up, then open the link in the verification mail.

/** The pages links in mails open. */
export type MailedPage = "verify-email" | "reset-password" | "unsubscribe";

type Session = { access_token: string; user: { id: string } };

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

const postJson = (base: string, path: string, body: unknown, token?: string) =>
  fetch(`${base}/api/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

/** An admin's access token, to read the mailbox with. */
export async function adminToken(base: string, admin: { email: string; password: string }): Promise<string> {
  return (await json<Session>(await postJson(base, "/auth/login", admin), "admin login")).access_token;
}

/** The link to `page` in the newest mail to `to` that has one (read as an admin), waiting up to 10 s for it to be queued. */
export async function mailedLink(base: string, token: string, to: string, page: MailedPage): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const pattern = new RegExp(`https?://[^\\s"'<>]+/${page}\\?token=[\\w.~-]+`);
  const query = new URLSearchParams({ filter: JSON.stringify({ to }), sort: JSON.stringify(["created_at", "DESC"]), range: "[0,9]" });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await json<MailboxListItem[]>(await fetch(`${base}/api/v1/admin/mailbox?${query}`, { headers }), "mailbox list");
    for (const row of rows) {
      const message = await json<MailboxMessageReply>(
        await fetch(`${base}/api/v1/admin/mailbox/${encodeURIComponent(row.id)}`, { headers }),
        "mailbox message",
      );
      const link = pattern.exec(message.text)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline)
      throw new Error(`no mail to ${to} links to /${page} (${rows.length} mails: ${rows.map((r) => r.subject).join(", ")})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The token a mailed link carries. */
export const tokenOf = (link: string): string => new URL(link).searchParams.get("token") ?? "";

/**
 * A new account's session, as a person gets one: sign up (201, no session), then open the
 * verification mail's link (POST /auth/verify with its token).
 */
export async function signUpVerified<S extends Session>(
  base: string,
  adminAccessToken: string,
  body: { email: string; password: string; role: "creator" | "expert"; first_name?: string; last_name?: string; timezone?: string },
): Promise<S> {
  await json(await postJson(base, "/auth/signup", body), `sign-up of ${body.email}`);
  const link = await mailedLink(base, adminAccessToken, body.email, "verify-email");
  return json<S>(await postJson(base, "/auth/verify", { token: tokenOf(link) }), `verification of ${body.email}`);
}
