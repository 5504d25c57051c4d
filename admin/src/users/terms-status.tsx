import { Chip, Tooltip } from "@mui/material";
import { useRecordContext } from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";
import type { User } from "./user-record.ts";

/** Accepted the current terms (and when), or which version they last accepted. */
export function TermsStatusField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const user = useRecordContext<User>();
  if (!user) return null;
  if (user.accepted_current_terms) {
    const at = user.current_terms_accepted_at ? consoleMoment(user.current_terms_accepted_at) : "";
    return (
      <Tooltip title={`Accepted ${user.current_terms_version} on ${at}`}>
        <Chip size="small" color="success" label={`Accepted ${user.current_terms_version}`} />
      </Tooltip>
    );
  }
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      label={user.latest_terms_version ? `Only ${user.latest_terms_version}` : "Not accepted"}
    />
  );
}
