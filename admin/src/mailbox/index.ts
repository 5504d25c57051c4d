import MailIcon from "@mui/icons-material/Mail";
import { ADMIN_API } from "../data-provider.ts";
import { accessToken } from "../auth-provider.ts";
import type { MailRow } from "./mail-record.ts";
import { MailboxList } from "./mailbox-list.tsx";
import { MailboxShow } from "./mailbox-show.tsx";

export default {
  list: MailboxList,
  show: MailboxShow,
  icon: MailIcon,
  options: { label: "Mailbox" },
  recordRepresentation: (m: MailRow) => `${m.subject} → ${m.to}`,
};

let answered: Promise<boolean> | null = null;

/**
 * Whether the API keeps a dev mailbox (no SMTP server configured): GET /admin/mailbox answers 404
 * when mail goes out by SMTP, and the console then leaves the resource out of its menu. Asked once
 * per page load, once an admin is signed in; never rejects.
 */
export function devMailboxShown(): Promise<boolean> {
  answered ??= (async () => {
    const token = await accessToken().catch(() => null);
    const response = token
      ? await fetch(`${ADMIN_API}/mailbox?range=${encodeURIComponent("[0,0]")}`, { headers: { Authorization: `Bearer ${token}` } }).catch(
          () => null,
        )
      : null;
    // Only a definite answer is kept: signed out or offline, ask again next time.
    if (!response || (response.status !== 404 && !response.ok)) answered = null;
    return response?.ok ?? false;
  })();
  return answered;
}
