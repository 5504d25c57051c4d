// Replies of /api/v1 (see replies.ts for the pattern): filled in by the read-model modules of issue 14.
export {};
