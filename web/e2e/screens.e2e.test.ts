import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, takeCspViolations } from "./chromium.ts";
import { adminToken, signUpVerified } from "./mailbox.ts";
import { callApi } from "./product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "./product-server.ts";
import { signedInContext as signedInBrowser, type Credentials } from "./signed-in-browser.ts";
import { gradientPng } from "./test-image.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The screens issue 13 changed, at a phone's 390x844 and a laptop's 1366x768, with the layout facts
// a browser can measure: card heights, what covers what, header height, whether text fits.
// Users and bookings are made through the API; screenshots go to e2e/artifacts/screens-*.png.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };
const run = Date.now().toString(36);

type AuthSession = { access_token: string; user: { id: string } };
/** A person: their session for the walk's API calls, and what a browser of theirs signs in with. */
type Person = { session: AuthSession; id: string; credentials: Credentials };

let product: ProductServer;
let browser: Browser;
let creator: Person;
let expert: Person;
let sessionId = "";
let unpaidBookingId = "";

const call = <T>(method: string, path: string, token: string | null, body?: unknown) => callApi<T>(product.url, method, path, token, body);

async function signUp(role: "creator" | "expert", first: string, last: string): Promise<Person> {
  const credentials = { email: `${first.toLowerCase()}-${run}@example.com`, password: `${first}-password-1` };
  const session = await signUpVerified<AuthSession>(product.url, await adminToken(product.url, ADMIN), {
    ...credentials,
    role,
    first_name: first,
    last_name: last,
  });
  const { version_id } = await call<{ version_id: string }>("GET", "/terms/latest", null);
  await call("POST", "/terms/accept", session.access_token, { version_id });
  return { session, id: session.user.id, credentials };
}

async function uploadPhoto(token: string, png: Buffer): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "photo.png");
  const reply = await fetch(`${product.url}/api/v1/experts/me/image`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!reply.ok) throw new Error(`image upload: ${reply.status} ${await reply.text()}`);
  return ((await reply.json()) as { url: string }).url;
}

/** A published expert with a published session (no description) and a Monday to Sunday schedule. */
async function openShop(first: string, last: string, title: string, photo: Buffer | null): Promise<{ person: Person; sessionId: string }> {
  const person = await signUp("expert", first, last);
  const token = person.session.access_token;
  const image = photo ? await uploadPhoto(token, photo) : null;
  await call("PATCH", "/experts/me", token, {
    first_name: first,
    last_name: last,
    title,
    bio: `${first} helps creators.`,
    tags: ["Brand deals", "Contracts"],
    profile_image: image,
    published: true,
  });
  const me = await call<{ id: string }>("GET", "/experts/me", token);
  // Approved by our team (issue 30), so the expert is listed and bookable.
  await call("PUT", `/admin/experts/${me.id}`, await adminToken(product.url, ADMIN), { verified: true, reason: "Vetted for the screens" });
  const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  await call("POST", `/experts/${me.id}/schedule`, token, {
    timezone: "UTC",
    slots: days.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })),
  });
  const { session } = await call<{ session: { id: string } }>("POST", "/sessions", token, {
    title: `${title} session`,
    price: 150,
    length_minutes: 60,
    description: "",
    session_details: "",
    ideal_for: [],
    prep_question_1: "What is your goal?",
    prep_question_2: null,
    prep_question_3: null,
    expert_id: me.id,
    status: "draft",
  });
  await call("PUT", `/sessions/${session.id}`, token, { status: "published" });
  return { person, sessionId: session.id };
}

async function book(time: string, pay: boolean): Promise<string> {
  const token = creator.session.access_token;
  const { booking } = await call<{ booking: { id: string } }>("POST", "/bookings", token, { session_id: sessionId, scheduled_time: time });
  if (pay) {
    const intent = await call<{ clientSecret: string }>("POST", "/stripe/test-intent", token, { bookingId: booking.id });
    await call("POST", "/payments/test/confirm", token, { client_secret: intent.clientSecret, card_number: "4242424242424242" });
  }
  return booking.id;
}

async function signedInContext(who: Person, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const { context } = await signedInBrowser(browser, product.url, who.credentials, {
    viewport,
    timezoneId: "UTC",
    locale: "en-GB",
    ...(viewport.width < 600 ? { isMobile: true, hasTouch: true } : {}),
  });
  context.setDefaultTimeout(20_000);
  return context;
}

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.stack));
  await page.goto(`${product.url}${path}`);
  return page;
}

const headerHeight = (page: Page) =>
  page
    .locator("header")
    .first()
    .evaluate((h) => Math.round(h.getBoundingClientRect().height));

/** Both widths, each in a fresh context: `check` runs and the page is photographed as screens-<name>-<phone|desktop>. */
async function atBothSizes(who: Person | null, path: string, name: string, check: (page: Page, phone: boolean) => Promise<void>) {
  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    const context = who ? await signedInContext(who, viewport) : await browser.newContext({ viewport });
    const page = await open(context, path);
    await check(page, size === "phone");
    await page.mouse.move(0, 0);
    await screenshot(page, `screens-${name}-${size}`);
    if (size === "phone") expect(await headerHeight(page), `${name}: header height at 390 px`).toBeLessThanOrEqual(64);
    const overflow = await page.evaluate(() => ({
      by: document.documentElement.scrollWidth - window.innerWidth,
      widest: [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 3)
        .map((e) => `${e.tagName}.${e.className}`.slice(0, 80)),
    }));
    expect(overflow.by, `${name} (${size}): sideways scroll from ${overflow.widest.join(" | ")}`).toBeLessThanOrEqual(0);
    await context.close();
  }
}

beforeAll(async () => {
  product = await startProduct(testPostgresUrl());
  browser = await launchChromium();
  const first = await openShop("Maya", `Lind${run}`, "Brand partnerships lead", gradientPng(300, 900)); // portrait
  await openShop("Omar", `Reyes${run}`, "Music licensing lawyer", gradientPng(1200, 400)); // wide
  await openShop("Ines", `Okafor${run}`, "Channel growth strategist", null);
  expert = first.person;
  sessionId = first.sessionId;
  creator = await signUp("creator", "Cora", `Quinn${run}`);
  const { times } = await call<{ times: string[] }>("GET", `/sessions/${sessionId}/availability`, null);
  // Far apart, so none overlaps another.
  const [confirmed, paidRequest, unpaid] = [times[2]!, times[40]!, times[80]!];
  const confirmedId = await book(confirmed, true);
  await call("PATCH", `/bookings/${confirmedId}/status`, expert.session.access_token, { status: "confirmed" });
  await book(paidRequest, true);
  unpaidBookingId = await book(unpaid, false);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe("screens changed by issue 13", () => {
  it("landing: the fanned cards do not hide one another's names and tags", async () => {
    await atBothSizes(null, "/", "landing", async (page, phone) => {
      await page.getByTestId("featured-expert").first().waitFor();
      if (phone) return;
      const covered = await page.getByTestId("featured-expert").evaluateAll((cards) =>
        cards.flatMap((card, i) =>
          [...card.querySelectorAll("h3, [data-testid=expert-tag]")].flatMap((el) => {
            // elementFromPoint sees only the viewport.
            el.scrollIntoView({ block: "center" });
            const r = el.getBoundingClientRect();
            const points = [
              [r.left + 4, r.top + r.height / 2],
              [r.left + r.width / 2, r.top + r.height / 2],
              [r.right - 4, r.top + r.height / 2],
            ];
            return points
              .filter(([x, y]) => !card.contains(document.elementFromPoint(x!, y!)))
              .map(([x, y]) => `card ${i + 1}: "${el.textContent}" covered at ${Math.round(x!)},${Math.round(y!)}`);
          }),
        ),
      );
      expect(covered).toEqual([]);
    });
  });

  it("experts listing: every card the same bounded height whatever the photo's shape; the search placeholder fits", async () => {
    await atBothSizes(creator, "/search", "experts", async (page, phone) => {
      await page.getByTestId("expert-card").nth(2).waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll("[data-testid=expert-card] img")].every((i) => (i as HTMLImageElement).complete),
      );
      const cards = await page
        .getByTestId("expert-card")
        .evaluateAll((all) =>
          all.map((c) => ({ height: c.getBoundingClientRect().height, frame: c.firstElementChild!.getBoundingClientRect() })),
        );
      const heights = cards.map((c) => Math.round(c.height));
      expect(Math.max(...heights) - Math.min(...heights), `card heights ${heights.join(", ")}`).toBeLessThanOrEqual(1);
      expect(Math.max(...heights)).toBeLessThanOrEqual(phone ? 480 : 400);
      for (const { frame } of cards) expect(frame.height / frame.width).toBeCloseTo(0.75, 2);
      const fit = await page.getByRole("searchbox").evaluate((input) => {
        const field = input as HTMLInputElement;
        const style = getComputedStyle(field);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        return {
          text: context.measureText(field.placeholder).width,
          room: field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        };
      });
      expect(fit.text, `placeholder ${Math.round(fit.text)} px in ${Math.round(fit.room)} px`).toBeLessThanOrEqual(fit.room);
    });
  });

  it("creator dashboard: Upcoming then Past, and an unpaid booking offers Complete payment and Release this time", async () => {
    await atBothSizes(creator, `/creator-dashboard/${creator.id}`, "creator-dashboard", async (page) => {
      await page.getByRole("heading", { name: "Upcoming" }).waitFor();
      const unpaid = page.locator(`[data-booking-id="${unpaidBookingId}"]`);
      await unpaid.getByRole("link", { name: "Complete payment" }).waitFor();
      await unpaid.getByRole("button", { name: /Release this time/ }).waitFor();
      const times = await page.getByTestId("creator-booking").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-booking-id")));
      expect(times).toHaveLength(3);
    });
  });

  it("booking wizard: resumed at payment, back to the time step, and the card form refuses a past expiry", async () => {
    await atBothSizes(creator, `/creator-dashboard/${creator.id}`, "payment-resumed", async (page) => {
      await page.locator(`[data-booking-id="${unpaidBookingId}"]`).getByRole("link", { name: "Complete payment" }).click();
      await page.getByTestId("wizard-step-2").waitFor();
      await page.getByLabel("Card number").fill("4242424242424242");
      await page.getByLabel("Expiry (MM/YY)").fill("01/20");
      await page.getByLabel("CVC").fill("123");
      await page.getByRole("button", { name: "Confirm & Pay" }).click();
      await page.getByText("Your card's expiry date is in the past.").waitFor();
      expect(await page.getByRole("tab", { name: /Select Time/ }).isEnabled()).toBe(true);
    });
    const context = await signedInContext(creator, DESKTOP);
    const page = await open(context, `/book-session/${sessionId}?booking=${unpaidBookingId}`);
    await page.getByRole("button", { name: "Choose another time" }).click();
    await page.getByText(/You are holding/).waitFor();
    await screenshot(page, "screens-time-step-holding-desktop");
    await context.close();
  });

  it("expert dashboard: requests needing action on top, payments count only accepted bookings, the fallback description's font, the named overlap", async () => {
    await atBothSizes(expert, `/expert-dashboard/${expert.id}/bookings`, "expert-bookings", async (page) => {
      await page.getByRole("heading", { name: "Needs your action" }).waitFor();
      const headings = await page.locator("main h2").allTextContents();
      expect(headings.slice(0, 2)).toEqual(["Needs your action", "Upcoming"]);
    });
    await atBothSizes(expert, `/expert-dashboard/${expert.id}/payments`, "expert-payments", async (page) => {
      await page.getByTestId("earnings-total").waitFor();
      // Money in the reader's locale (issue 29.8): a British reader's dollars are "US$".
      expect(await page.getByTestId("earnings-total").textContent()).toBe("US$150.00");
      expect(await page.getByTestId("pending-payments").textContent()).toContain("1 paid request, US$150.00");
    });
    await atBothSizes(expert, `/expert-dashboard/${expert.id}`, "expert-sessions", async (page, phone) => {
      await page.getByRole("table", { name: "Your sessions" }).waitFor();
      if (phone) return; // the description column is left out on phones
      const sizes = await page
        .locator("table[aria-label='Your sessions'] tbody tr")
        .first()
        .evaluate((row) => {
          const cells = row.querySelectorAll("td");
          return { title: getComputedStyle(cells[1]!).fontSize, fallback: getComputedStyle(cells[3]!.querySelector("span")!).fontSize };
        });
      expect(sizes.fallback).toBe(sizes.title);
    });
    await atBothSizes(expert, `/expert-dashboard/${expert.id}/slots`, "expert-schedule", async (page) => {
      await page.getByRole("button", { name: "Add New Slot" }).click();
      await page.getByText("Monday 09:00–17:00 overlaps Monday 09:00–17:00").first().waitFor();
      expect(await page.getByRole("button", { name: "Save all" }).isDisabled()).toBe(true);
    });
  });

  it("edit session: a fixed field loses its message at once", async () => {
    await atBothSizes(expert, "/edit-session", "edit-session", async (page) => {
      await page.getByRole("button", { name: "Save Session" }).click();
      await page.getByText("Please enter a session title.").waitFor();
      await page.getByLabel("Session Title").fill("Deck review");
      await page.getByText("Please enter a session title.").waitFor({ state: "detached" });
    });
  });

  it("early access: a visitor's request is taken and thanked", async () => {
    await atBothSizes(null, "/early-access", "early-access", async (page, phone) => {
      await page.getByRole("textbox", { name: /^Name/ }).fill("Nia Visitor");
      await page.getByRole("textbox", { name: /^Email/ }).fill(`nia-${phone ? "phone" : "desktop"}-${run}@example.com`);
      await page.getByRole("radio", { name: "Creator" }).check();
      await page.getByRole("textbox", { name: /What do you need/ }).fill("A lawyer to read my first brand deal.");
      await page.getByRole("button", { name: /Request/ }).click();
      await page.getByText(/Thanks, Nia Visitor!/).waitFor();
    });
  });

  it("visitors browse the experts and a profile without signing in", async () => {
    await atBothSizes(null, "/experts", "experts-visitor", async (page) => {
      await page.getByTestId("expert-card").nth(2).waitFor();
      expect(new URL(page.url()).pathname).toBe("/experts");
    });
  });

  it("account: a creator's names, password and email preferences; Forgot password? asks for the address", async () => {
    await atBothSizes(creator, "/account", "account", async (page) => {
      await page.getByLabel("Current Password").waitFor();
      expect(await page.getByLabel(/First Name/).inputValue()).toBe("Cora");
      await page.getByRole("switch", { name: "Send me reminders before sessions" }).waitFor();
    });
    await atBothSizes(null, "/login", "login", async (page) => {
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.getByRole("button", { name: "Send Reset Link" }).waitFor();
    });
  });

  it("manage booking: an unpaid request awaits payment instead of offering Accept, and can be declined with a reason", async () => {
    await atBothSizes(expert, `/manage-booking/${unpaidBookingId}`, "manage-unpaid", async (page, phone) => {
      expect(await page.getByRole("button", { name: "Awaiting payment" }).isDisabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Accept Booking" }).count()).toBe(0);
      if (phone) return;
      await page.getByRole("button", { name: "Decline" }).click();
      await page.getByLabel(/Reason for declining/).waitFor();
    });
  });

  it("profile: a published profile offers Unpublish behind a confirmation, and saving keeps it published", async () => {
    await atBothSizes(expert, `/expert-dashboard/${expert.id}/profile`, "profile-published", async (page, phone) => {
      await page.getByRole("button", { name: "Unpublish Profile" }).waitFor();
      if (phone) {
        await page.getByRole("button", { name: "Save Profile" }).click();
        await page.getByText("Your profile has been saved successfully!").waitFor();
        expect(await page.getByRole("button", { name: "Unpublish Profile" }).count()).toBe(1);
        return;
      }
      await page.getByRole("button", { name: "Unpublish Profile" }).click();
      await page.getByText("Unpublish your profile?").waitFor();
    });
  });

  it("an admin opening a creator's dashboard sees that creator's bookings", async () => {
    const session = await call<AuthSession>("POST", "/auth/login", null, { email: ADMIN.email, password: ADMIN.password });
    const admin = { session, id: session.user.id, credentials: ADMIN };
    await atBothSizes(admin, `/creator-dashboard/${creator.id}`, "admin-views-creator", async (page) => {
      await page.getByRole("heading", { name: "Creator's Bookings" }).waitFor();
      await page.getByTestId("creator-booking").nth(2).waitFor();
      expect(await page.getByTestId("creator-booking").count()).toBe(3);
    });
  });

  it("phone header: one row, with every link and Logout one tap away in the menu", async () => {
    const context = await signedInContext(creator, PHONE);
    const page = await open(context, `/creator-dashboard/${creator.id}`);
    await page.getByRole("button", { name: "Menu" }).click();
    for (const name of ["Find Experts", "My Bookings", "Account", "Logout"]) await page.getByRole("menuitem", { name }).waitFor();
    await page.waitForTimeout(400); // the menu fades in
    await screenshot(page, "screens-header-menu-phone");
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.waitForURL(`${product.url}/`);
    await context.close();
  });

  it("reported no Content-Security-Policy violations", () => {
    expect(takeCspViolations(browser)).toEqual([]);
  });
});
