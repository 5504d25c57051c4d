import type { RowsToWrite } from "../port.ts";
import type { KeyRing } from "./data-keys.ts";
import { KEY_ROW_COLUMNS, KEY_ROW_TABLE, type FreshKey } from "./data-keys-table.ts";

// A new person's data key written with their first event (issue 33): its `data_keys` row goes in the transaction of
// the append of the first event sealed with it (the Postgres store's AppendOptions.alongside), so a sign-up is one
// statement, and the key exists exactly when such an event does: an append that fails leaves no key, a crash cannot
// leave an event without its key, and erasure finds the row as any other.

/** A key ring that makes keys to be written with their events (the Postgres one): data-keys-table.ts. */
export type FreshKeyRing = KeyRing & {
  freshKey(ownerId: string): Promise<FreshKey | null>;
  settleFresh(fresh: FreshKey, written: boolean): void;
  databaseIdentity(): Promise<string>;
};

export const makesFreshKeys = (keys: KeyRing): keys is FreshKeyRing =>
  typeof (keys as Partial<FreshKeyRing>).freshKey === "function" && typeof (keys as Partial<FreshKeyRing>).databaseIdentity === "function";

/** The key ring as one append's sealing sees it: an owner it knows nothing of gets a fresh key, its row for the append to write. */
export class AppendKeys implements KeyRing {
  /** Each owner's key asked with `create`, once per append: the events of one append share the fresh key they need. */
  private readonly asked = new Map<string, Promise<Buffer | null>>();
  private readonly fresh: FreshKey[] = [];

  constructor(private readonly ring: FreshKeyRing) {}

  keyFor(ownerId: string, create: boolean): Promise<Buffer | null> {
    const mine = this.fresh.find((f) => f.ownerId === ownerId);
    if (mine) return Promise.resolve(mine.key);
    let key = this.asked.get(ownerId);
    if (key) return key;
    if (!create) return this.ring.keyFor(ownerId, false);
    this.asked.set(ownerId, (key = this.make(ownerId)));
    return key;
  }

  /** The rows of the fresh keys, for the append to write (undefined: none). */
  rows(): RowsToWrite | undefined {
    return this.fresh.length === 0 ? undefined : { table: KEY_ROW_TABLE, columns: KEY_ROW_COLUMNS, rows: this.fresh.map((f) => f.row) };
  }

  /** The append committed (`written`) or not: the ring keeps the fresh keys, or forgets them. */
  settle(written: boolean): void {
    for (const f of this.fresh.splice(0)) this.ring.settleFresh(f, written);
  }

  private async make(ownerId: string): Promise<Buffer | null> {
    const fresh = await this.ring.freshKey(ownerId);
    if (!fresh) return this.ring.keyFor(ownerId, true);
    this.fresh.push(fresh);
    return fresh.key;
  }
}
