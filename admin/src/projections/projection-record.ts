/** A read model's checkpoint, lag, last error and latest rebuild (GET /admin/projections; id = name), and a rebuild's progress. */
export type { ProjectionGeneration, ProjectionRecord, RebuildProgress } from "@booking/contracts";
