import StorageIcon from "@mui/icons-material/Storage";
import { ProjectionList } from "./projection-list.tsx";
import type { ProjectionRecord } from "./projection-record.ts";
import { ProjectionShow } from "./projection-show.tsx";

export default {
  list: ProjectionList,
  show: ProjectionShow,
  icon: StorageIcon,
  options: { label: "Read models" },
  recordRepresentation: (p: ProjectionRecord) => p.name,
};
