// The header's greeting (issue 27.5): "Welcome back" said on a person's very first visit is
// wrong. "Welcome" the first time this browser sees them, "Welcome back" after; decided once per
// tab, so it does not change from one page to the next.

export type Greeting = "Welcome" | "Welcome back";

type Stores = { local: Pick<Storage, "getItem" | "setItem">; session: Pick<Storage, "getItem" | "setItem"> };

const browserStores = (): Stores | null => {
  try {
    return { local: window.localStorage, session: window.sessionStorage };
  } catch {
    return null;
  }
};

export function greetingFor(userId: string, stores: Stores | null = browserStores()): Greeting {
  if (!stores) return "Welcome";
  const key = `expert-sessions.greeting.${userId}`;
  try {
    const decided = stores.session.getItem(key);
    if (decided === "Welcome" || decided === "Welcome back") return decided;
    const greeting: Greeting = stores.local.getItem(key) ? "Welcome back" : "Welcome";
    stores.local.setItem(key, "seen");
    stores.session.setItem(key, greeting);
    return greeting;
  } catch {
    // Storage full or refused: a plain welcome is never wrong.
    return "Welcome";
  }
}
