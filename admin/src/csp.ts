import { z } from "zod";

// Imported first by app.tsx and sign-in-api.ts, before any module builds a schema. The API's Content-Security-Policy
// refuses eval; zod would otherwise probe for it with Function("") when it builds its first object
// schema, which the browser reports as a violation on every page. Parsing works the same without.
z.config({ jitless: true });
