import FactCheckIcon from "@mui/icons-material/FactCheck";
import { ApplicationList } from "./application-list.tsx";
import { applicantName, type Application } from "./application-record.ts";
import { ApplicationShow } from "./application-show.tsx";

export default {
  list: ApplicationList,
  show: ApplicationShow,
  icon: FactCheckIcon,
  recordRepresentation: (a: Application) => applicantName(a),
};
