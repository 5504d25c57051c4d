import GavelIcon from "@mui/icons-material/Gavel";
import { AcceptanceList, type TermsAcceptance } from "./acceptance-list.tsx";

export default {
  list: AcceptanceList,
  icon: GavelIcon,
  options: { label: "Terms acceptances" },
  recordRepresentation: (a: TermsAcceptance) => `${a.email ?? a.user_id} · ${a.version_id}`,
};
