import type { Migration } from "@booking/contracts";

// Placeholder: the auth tables are being written.
export const authMigrations: readonly Migration[] = [];
