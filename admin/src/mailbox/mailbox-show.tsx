import { Box, Typography } from "@mui/material";
import { FunctionField, Labeled, ReferenceField, Show, SimpleShowLayout, TextField, useRecordContext } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { framedMailHtml, kindLabel, type ShownMail } from "./mail-record.ts";
import { MailStatusField } from "./mail-status.tsx";

/**
 * The HTML as the recipient's mail program would show it, in a frame that runs no script and
 * shares nothing with the console (no allow-same-origin); its links open in a new tab, outside
 * the sandbox, as a mail program opens them.
 */
function HtmlBody() {
  const mail = useRecordContext<ShownMail>();
  if (mail?.html === undefined) return null;
  return (
    <Box
      component="iframe"
      title={`HTML of “${mail.subject}”`}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      srcDoc={framedMailHtml(mail.html)}
      data-testid="mail-html"
      sx={{ width: 760, maxWidth: "100%", height: 560, border: 1, borderColor: "divider", borderRadius: 1, bgcolor: "#fff" }}
    />
  );
}

function TextBody() {
  const mail = useRecordContext<ShownMail>();
  if (mail?.text === undefined) return null;
  return (
    <Typography
      component="pre"
      data-testid="mail-text"
      sx={{
        whiteSpace: "pre-wrap",
        overflowWrap: "anywhere",
        fontFamily: "monospace",
        fontSize: 13,
        m: 0,
        p: 2,
        width: 760,
        maxWidth: "100%",
        boxSizing: "border-box",
        bgcolor: "action.hover",
        borderRadius: 1,
      }}
    >
      {mail.text}
    </Typography>
  );
}

/** Headers (the extra ones too: List-Unsubscribe on reminders), then the HTML and the plain text. */
export function MailboxShow() {
  return (
    <Show title="Mail">
      <SimpleShowLayout>
        <TextField source="subject" label="Subject" />
        <TextField source="from" label="From" />
        <TextField source="to" label="To" />
        <FunctionField<ShownMail> label="Kind" render={(m) => kindLabel(m.kind)} />
        <MailStatusField label="Status" />
        <TextField source="note" label="Why not sent / last error" emptyText="—" />
        <DateTimeField source="created_at" label="Created" />
        <DateTimeField source="send_after" label="Not before" />
        <DateTimeField source="sent_at" label="Logged at" />
        <ReferenceField source="booking_id" reference="bookings" link="show" label="Booking" emptyText="—" />
        <FunctionField<ShownMail>
          label="Other headers"
          render={(m) =>
            m.headers && Object.keys(m.headers).length
              ? Object.entries(m.headers).map(([name, value]) => <div key={name}>{`${name}: ${value}`}</div>)
              : "—"
          }
        />
        <FunctionField<ShownMail>
          label="Attachments"
          render={(m) => (m.attachments?.length ? m.attachments.map((a) => `${a.filename} (${a.content_type})`).join(", ") : "—")}
        />
        <TextField source="id" label="Message id" />
        <Labeled label="HTML">
          <HtmlBody />
        </Labeled>
        <Labeled label="Plain text">
          <TextBody />
        </Labeled>
      </SimpleShowLayout>
    </Show>
  );
}
