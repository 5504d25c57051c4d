// An immutable map for a long stream's state: `with` returns a new map and leaves this one as it
// was, copying only the shard the key falls in (and the shard list), not the whole map. An expert
// with 10,000 released bookings folds each new event in microseconds instead of copying 10,000
// entries per event (a decider's evolve never changes the state it is given).

const SHARDS = 256;

function shardOf(key: string): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
  return hash & (SHARDS - 1);
}

export class ShardedMap<V> implements Iterable<[string, V]> {
  private constructor(
    private readonly shards: readonly (ReadonlyMap<string, V> | undefined)[],
    readonly size: number,
  ) {}

  static empty<V>(): ShardedMap<V> {
    return new ShardedMap<V>(new Array<undefined>(SHARDS).fill(undefined), 0);
  }

  get(key: string): V | undefined {
    return this.shards[shardOf(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.shards[shardOf(key)]?.has(key) ?? false;
  }

  /** This map with `key` set to `value`; this one is unchanged. */
  with(key: string, value: V): ShardedMap<V> {
    const i = shardOf(key);
    const shard = new Map(this.shards[i]);
    const added = shard.has(key) ? 0 : 1;
    shard.set(key, value);
    const shards = this.shards.slice();
    shards[i] = shard;
    return new ShardedMap(shards, this.size + added);
  }

  /** Entries shard by shard (in insertion order within a shard): sort when order matters. */
  *entries(): IterableIterator<[string, V]> {
    for (const shard of this.shards) if (shard) yield* shard.entries();
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: ShardedMap<V>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}
