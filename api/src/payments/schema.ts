import type { Migration } from "@booking/contracts";

// Placeholder: the payments tables are being written.
export const paymentsMigrations: readonly Migration[] = [];
