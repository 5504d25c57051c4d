import SchoolIcon from "@mui/icons-material/School";
import { ExpertList } from "./expert-list.tsx";
import { expertName, type Expert } from "./expert-record.ts";
import { ExpertShow } from "./expert-show.tsx";

export default {
  list: ExpertList,
  show: ExpertShow,
  icon: SchoolIcon,
  recordRepresentation: (e: Expert) => expertName(e),
};
