import type { Migration } from "@booking/contracts";

// Placeholder: the admin tables are being written.
export const adminMigrations: readonly Migration[] = [];
