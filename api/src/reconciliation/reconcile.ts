// Reconciliation (issue 29.6), the pure part: the ledger's provider-facing movements against what
// the provider reports, both as movements keyed by what they are (a booking's payment, refunds,
// transfer, reversals; an expert's payouts) and compared by amount. No I/O here: the sources are
// read in ./movements.ts, the run is kept in ./runs-table.ts.

/** What moved money at the provider. */
export const MOVEMENT_KINDS = ["payment", "refund", "transfer", "reversal", "payout"] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/**
 * One movement (or several of one key, added up): `ref` is what it belongs to — the booking for
 * payments, refunds, transfers and reversals, the expert for payouts. `currency` null: the source
 * does not say (the test provider's payments and refunds are in the booking's currency).
 */
export type Movement = { kind: MovementKind; ref: string; currency: string | null; amountCents: number };

export type DifferenceKind = "missing" | "extra" | "amount";

/**
 * A difference: `missing` — the provider has it, the ledger does not; `extra` — the ledger has it,
 * the provider does not; `amount` — both have it, for different amounts (or currencies).
 */
export type Difference = {
  kind: DifferenceKind;
  movement: MovementKind;
  ref: string;
  currency: string | null;
  ledgerCents: number | null;
  providerCents: number | null;
  /** The difference in words, for the console. */
  what: string;
};

type Totals = Map<string, { kind: MovementKind; ref: string; currency: string | null; amountCents: number }>;

const keyOf = (m: Pick<Movement, "kind" | "ref">) => `${m.kind}\u0000${m.ref}`;

/** One total per key. A currency known on one movement of the key stands for the key; two currencies under one key are kept apart by the caller's refs. */
function totals(movements: readonly Movement[]): Totals {
  const byKey: Totals = new Map();
  for (const m of movements) {
    const key = keyOf(m);
    const seen = byKey.get(key);
    if (seen) byKey.set(key, { ...seen, currency: seen.currency ?? m.currency, amountCents: seen.amountCents + m.amountCents });
    else byKey.set(key, { ...m });
  }
  return byKey;
}

const cents = (n: number) => (n / 100).toFixed(2);
const LABEL: Record<MovementKind, string> = {
  payment: "Payment of booking",
  refund: "Refunds of booking",
  transfer: "Transfer of booking",
  reversal: "Transfer reversals of booking",
  payout: "Payouts of expert",
};

/** Compare the ledger with the provider: every key either side holds, in a stable order (kind, then ref). */
export function reconcile(ledger: readonly Movement[], provider: readonly Movement[]): Difference[] {
  const fromLedger = totals(ledger);
  const fromProvider = totals(provider);
  const keys = [...new Set([...fromLedger.keys(), ...fromProvider.keys()])];
  const differences: Difference[] = [];
  // A key whose movements add up to nothing moved nothing (a payout paid, then returned): as if absent.
  const moved = (t: Totals, key: string) => {
    const total = t.get(key);
    return total?.amountCents ? total : undefined;
  };
  for (const key of keys) {
    const l = moved(fromLedger, key);
    const p = moved(fromProvider, key);
    if (!l && !p) continue;
    const any = (l ?? p)!;
    const currency = l?.currency ?? p?.currency ?? null;
    const unit = currency ? ` ${currency}` : "";
    const base = { movement: any.kind, ref: any.ref, currency, ledgerCents: l?.amountCents ?? null, providerCents: p?.amountCents ?? null };
    const label = `${LABEL[any.kind]} ${any.ref}`;
    if (!l)
      differences.push({ ...base, kind: "missing", what: `${label}: ${cents(p!.amountCents)}${unit} at the provider, not in the ledger` });
    else if (!p)
      differences.push({ ...base, kind: "extra", what: `${label}: ${cents(l.amountCents)}${unit} in the ledger, not at the provider` });
    else if (l.amountCents !== p.amountCents || (l.currency && p.currency && l.currency !== p.currency)) {
      const ledgerSide = `${cents(l.amountCents)}${l.currency ? ` ${l.currency}` : unit}`;
      const providerSide = `${cents(p.amountCents)}${p.currency ? ` ${p.currency}` : unit}`;
      differences.push({ ...base, kind: "amount", what: `${label}: ${ledgerSide} in the ledger, ${providerSide} at the provider` });
    }
  }
  const order = (d: Difference) => MOVEMENT_KINDS.indexOf(d.movement);
  return differences.sort((a, b) => order(a) - order(b) || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}
