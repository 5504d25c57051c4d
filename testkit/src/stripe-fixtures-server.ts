import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stripeFixture, type StripeObject } from "./stripe-fixtures.ts";

// Stripe without a network (issue 29): a local HTTP server the `stripe` client is pointed at (its
// host, port and protocol options) that answers with Stripe's own published example objects
// (../shared/stripe/fixtures3.json beside the repository, read, never copied in), given the ids and
// amounts of each request. It records every request (method, path, form body, Idempotency-Key and
// Stripe-Account headers) for tests to assert, replays the first answer to an idempotency key as
// Stripe does (errors and 500s included, until the key is forgotten), and answers an error on demand.
// Each charge, refund, transfer, reversal and payout it makes is listed as a balance transaction of
// the balance it moved (the platform's, or the connected account's under Stripe-Account), its source
// expanded on request (`expand[]=data.source`), for reconciliation.

export type StripeRequestSeen = {
  method: string;
  path: string;
  /** The form body (or the query of a GET), flattened as sent: `metadata[expertId]`, `capabilities[transfers][requested]`. */
  form: Record<string, string>;
  idempotencyKey: string | null;
  stripeAccount: string | null;
  status: number;
  /** The answer was the one saved for its idempotency key. */
  replayed: boolean;
};

/** Stripe's error body (`{error: {type, code, message, ...}}`) and the status it comes with. */
export type StripeErrorReply = { status: number; error: { type: string; code?: string; message: string; [field: string]: unknown } };

export const stripeErrors = {
  insufficientFunds: (): StripeErrorReply => ({
    status: 400,
    error: {
      type: "invalid_request_error",
      code: "balance_insufficient",
      message: "You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance.",
    },
  }),
  accountDisabled: (): StripeErrorReply => ({
    status: 400,
    error: {
      type: "invalid_request_error",
      code: "account_invalid",
      message: "Your destination account needs to have at least one of the following capabilities enabled: transfers.",
    },
  }),
  serverError: (): StripeErrorReply => ({ status: 500, error: { type: "api_error", message: "An unknown error occurred" } }),
};

type Reply = { status: number; body: unknown };
type Route = { method: string; pattern: RegExp; answer: (match: string[], form: Record<string, string>, seen: StripeRequestSeen) => Reply };
type Refusal = { method: string | null; path: string | RegExp; reply: StripeErrorReply; times: number };

export type StripeFixturesServer = {
  /** Hand these to `new Stripe(key, {...clientOptions})`. */
  clientOptions: { host: string; port: number; protocol: "http" };
  requests: StripeRequestSeen[];
  /** The next `times` (1) requests to `path` (and `method`, any when absent) get this error instead of the fixture. */
  refuseNext(refusal: { path: string | RegExp; method?: string; reply: StripeErrorReply; times?: number }): void;
  /** What later `accounts.retrieve` calls say of an account. */
  updateAccount(accountId: string, fields: StripeObject): void;
  /** The status new payouts are answered with (Stripe's example says in_transit). */
  payoutStatus: string;
  /** A payout's status as later listings show it (Stripe's payout.paid, payout.failed). */
  setPayoutStatus(payoutId: string, status: string): void;
  /** A creator's card charged for a PaymentIntent (as Stripe.js confirming it would): its charge and balance transaction; the charge's id. */
  charge(c: { paymentIntent: string; amount: number; currency: string }): string;
  /** Stripe prunes idempotency keys after 24 hours: a key asked again afterwards is a new request. */
  forgetIdempotencyKeys(): void;
  close(): Promise<void>;
};

const metadataOf = (form: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(form).flatMap(([k, v]) => {
      const key = /^metadata\[(.+)\]$/.exec(k)?.[1];
      return key ? [[key, v]] : [];
    }),
  );

const missing = (what: string, id: string): Reply => ({
  status: 404,
  body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}: '${id}'`, param: "id" } },
});

export async function startStripeFixturesServer(): Promise<StripeFixturesServer> {
  const requests: StripeRequestSeen[] = [];
  const refusals: Refusal[] = [];
  const saved = new Map<string, { request: string; reply: Reply }>();
  const accounts = new Map<string, StripeObject>();
  // What moved on each balance (the platform's: null; a connected account's: its id), newest first, as Stripe lists it.
  const balances = new Map<string | null, StripeObject[]>();
  // Every object made, by id: a listing's expanded sources.
  const objects = new Map<string, StripeObject>();
  const kept = <T extends StripeObject>(object: T): T => (objects.set(String(object.id), object), object);
  const moved = (account: string | null, type: string, amount: number, currency: unknown, source: string): string => {
    const id = nextId("txn");
    const txn = { ...stripeFixture("balance_transaction"), id, amount, net: amount, fee: 0, fee_details: [], currency, source, type };
    balances.set(account, [
      { ...txn, reporting_category: type, description: null, created: Math.floor(Date.now() / 1000) },
      ...(balances.get(account) ?? []),
    ]);
    return id;
  };
  let count = 0;
  const nextId = (prefix: string) => `${prefix}_fixture${(++count).toString().padStart(6, "0")}`;
  const server: Pick<StripeFixturesServer, "payoutStatus"> = { payoutStatus: String(stripeFixture("payout").status) };

  const routes: Route[] = [
    {
      method: "POST",
      pattern: /^\/v1\/accounts$/,
      answer: (_m, form) => {
        const account = {
          ...stripeFixture("account"),
          id: nextId("acct"),
          type: form.type ?? "standard",
          email: form.email ?? null,
          country: form.country ?? "US",
          metadata: metadataOf(form),
          payouts_enabled: false,
          details_submitted: false,
          charges_enabled: false,
        };
        accounts.set(account.id, account);
        return { status: 200, body: account };
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/accounts\/([^/]+)$/,
      answer: ([, id]) => (accounts.has(id!) ? { status: 200, body: accounts.get(id!) } : missing("account", id!)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/account_links$/,
      answer: (_m, form) =>
        accounts.has(form.account ?? "") ? { status: 200, body: stripeFixture("account_link") } : missing("account", form.account ?? ""),
    },
    {
      method: "POST",
      pattern: /^\/v1\/transfers$/,
      answer: (_m, form) => {
        const id = nextId("tr");
        const amount = Number(form.amount);
        const transfer: StripeObject = {
          ...stripeFixture("transfer"),
          id,
          amount,
          currency: form.currency,
          destination: form.destination,
          transfer_group: form.transfer_group ?? null,
          metadata: metadataOf(form),
          reversals: { object: "list", data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
        };
        transfer.balance_transaction = moved(null, "transfer", -amount, transfer.currency, id);
        kept(transfer);
        return { status: 200, body: transfer };
      },
    },
    {
      method: "POST",
      pattern: /^\/v1\/transfers\/([^/]+)\/reversals$/,
      answer: ([, id], form) => {
        const transfer = objects.get(id!);
        if (transfer?.object !== "transfer") return missing("transfer", id!);
        const amount = form.amount === undefined ? Number(transfer.amount) - Number(transfer.amount_reversed) : Number(form.amount);
        const reversalId = nextId("trr");
        const reversal: StripeObject = {
          ...stripeFixture("transfer_reversal"),
          id: reversalId,
          amount,
          currency: transfer.currency,
          transfer: id,
          metadata: metadataOf(form),
        };
        reversal.balance_transaction = moved(null, "transfer_refund", amount, transfer.currency, reversalId);
        kept(reversal);
        transfer.amount_reversed = Number(transfer.amount_reversed) + amount;
        transfer.reversed = transfer.amount_reversed === transfer.amount;
        (transfer.reversals as { data: unknown[] }).data.unshift(reversal);
        return { status: 200, body: reversal };
      },
    },
    {
      method: "POST",
      pattern: /^\/v1\/payouts$/,
      answer: (_m, form, seen) => {
        const id = nextId("po");
        const balance_transaction = moved(seen.stripeAccount, "payout", -Number(form.amount), form.currency, id);
        const payout = {
          ...stripeFixture("payout"),
          id,
          amount: Number(form.amount),
          currency: form.currency,
          automatic: false,
          balance_transaction,
        };
        return { status: 200, body: kept({ ...payout, metadata: metadataOf(form), status: server.payoutStatus }) };
      },
    },
    {
      method: "POST",
      pattern: /^\/v1\/payment_intents$/,
      answer: (_m, form) => {
        const id = nextId("pi");
        const intent = {
          ...stripeFixture("payment_intent"),
          id,
          amount: Number(form.amount),
          currency: form.currency,
          metadata: metadataOf(form),
        };
        return { status: 200, body: kept({ ...intent, client_secret: `${id}_secret_fixture`, status: "requires_payment_method" }) };
      },
    },
    {
      method: "POST",
      pattern: /^\/v1\/refunds$/,
      answer: (_m, form) => {
        const id = nextId("re");
        const amount = Number(form.amount);
        const currency =
          [...objects.values()].find((o) => o.object === "charge" && o.payment_intent === form.payment_intent)?.currency ?? "usd";
        const refund = {
          ...stripeFixture("refund"),
          id,
          amount,
          currency,
          payment_intent: form.payment_intent,
          metadata: metadataOf(form),
        };
        return { status: 200, body: kept({ ...refund, balance_transaction: moved(null, "refund", -amount, currency, id) }) };
      },
    },
    { method: "GET", pattern: /^\/v1\/balance$/, answer: () => ({ status: 200, body: stripeFixture("balance") }) },
    {
      method: "GET",
      pattern: /^\/v1\/balance_transactions$/,
      answer: (_m, form, seen) => {
        const expand = Object.entries(form).some(([k, v]) => k.startsWith("expand") && v === "data.source");
        const data = (balances.get(seen.stripeAccount) ?? [])
          .filter((t) => !form.type || t.type === form.type)
          .map((t) => (expand ? { ...t, source: objects.get(String(t.source)) ?? t.source } : t));
        return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/balance_transactions" } };
      },
    },
  ];

  const answer = (seen: StripeRequestSeen): Reply => {
    const refusal = refusals.find(
      (r) =>
        (r.method === null || r.method === seen.method) && (typeof r.path === "string" ? r.path === seen.path : r.path.test(seen.path)),
    );
    if (refusal) {
      refusal.times -= 1;
      if (refusal.times <= 0) refusals.splice(refusals.indexOf(refusal), 1);
      return { status: refusal.reply.status, body: { error: refusal.reply.error } };
    }
    for (const route of routes) {
      const match = route.method === seen.method ? route.pattern.exec(seen.path) : null;
      if (match) return route.answer([...match], seen.form, seen);
    }
    return {
      status: 404,
      body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${seen.method}: ${seen.path}).` } },
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://stripe.local");
    const body = Buffer.concat(chunks).toString("utf8");
    const header = (name: string) => (typeof request.headers[name] === "string" ? (request.headers[name] as string) : null);
    const seen: StripeRequestSeen = {
      method: request.method ?? "GET",
      path: url.pathname,
      form: Object.fromEntries(request.method === "GET" ? url.searchParams : new URLSearchParams(body)),
      idempotencyKey: header("idempotency-key"),
      stripeAccount: header("stripe-account"),
      status: 0,
      replayed: false,
    };
    // Stripe keeps the first answer to a key (per account) and replays it, even an error; other parameters under it are refused.
    const key = seen.idempotencyKey && seen.method === "POST" ? `${seen.stripeAccount ?? ""} ${seen.idempotencyKey}` : null;
    const asked = JSON.stringify([seen.method, seen.path, seen.form]);
    const first = key ? saved.get(key) : undefined;
    let reply: Reply;
    if (first && first.request !== asked) {
      reply = {
        status: 400,
        body: {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          },
        },
      };
    } else if (first) {
      reply = first.reply;
      seen.replayed = true;
    } else {
      reply = answer(seen);
      if (key) saved.set(key, { request: asked, reply });
    }
    seen.status = reply.status;
    requests.push(seen);
    response.writeHead(reply.status, {
      "content-type": "application/json",
      "request-id": `req_fixture${requests.length}`,
      ...(seen.replayed && { "idempotent-replayed": "true" }),
      ...(seen.idempotencyKey && { "idempotency-key": seen.idempotencyKey }),
    });
    response.end(JSON.stringify(reply.body));
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  const { port } = http.address() as AddressInfo;

  return Object.assign(server, {
    clientOptions: { host: "127.0.0.1", port, protocol: "http" as const },
    requests,
    refuseNext: ({
      path,
      method,
      reply,
      times = 1,
    }: {
      path: string | RegExp;
      method?: string;
      reply: StripeErrorReply;
      times?: number;
    }) => {
      refusals.push({ path, method: method ?? null, reply, times });
    },
    updateAccount: (accountId: string, fields: StripeObject) => {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`no account ${accountId} at the fixture server`);
      Object.assign(account, fields);
    },
    forgetIdempotencyKeys: () => saved.clear(),
    setPayoutStatus: (payoutId: string, status: string) => {
      const payout = objects.get(payoutId);
      if (!payout) throw new Error(`no payout ${payoutId} at the fixture server`);
      payout.status = status;
    },
    charge: ({ paymentIntent, amount, currency }: { paymentIntent: string; amount: number; currency: string }) => {
      const id = nextId("ch");
      const charge = { ...stripeFixture("charge"), id, amount, amount_captured: amount, currency, payment_intent: paymentIntent };
      kept({ ...charge, balance_transaction: moved(null, "charge", amount, currency, id) });
      return id;
    },
    close: () =>
      new Promise<void>((done, fail) => {
        http.closeAllConnections();
        http.close((error) => (error ? fail(error) : done()));
      }),
  });
}
