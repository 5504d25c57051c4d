// Imported first by main.tsx, before any module builds a schema. The API's Content-Security-Policy
// refuses eval; zod would otherwise probe for it with Function("") when it builds its first object
// schema, which the browser reports as a violation on every page. Parsing works the same without.
// zod reads its settings from globalThis.__zod_globalConfig (the object `z.config` writes, shared
// by every copy of zod), so setting it there keeps zod itself off the first page (issue 19).
const zodSettings = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
// Changed in place: a zod already loaded holds this very object.
(zodSettings.__zod_globalConfig ??= {}).jitless = true;
