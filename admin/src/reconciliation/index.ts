import CompareArrowsIcon from "@mui/icons-material/CompareArrows";
import { DifferenceList } from "./difference-list.tsx";
import type { Difference } from "./difference-record.ts";

/** The latest reconciliation run's differences, and a run on demand (GET /admin/reconciliation, POST …/run). */
export default {
  list: DifferenceList,
  icon: CompareArrowsIcon,
  options: { label: "Reconciliation" },
  recordRepresentation: (d: Difference) => `${d.kind} · ${d.what}`,
};
