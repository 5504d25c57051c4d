import { IANAZone } from "luxon";

// Experiments for the availability and booking figures: luxon's costs that the engine could
// avoid, patched here (process-wide, reversibly) to measure what avoiding them would give.

/** luxon's IANAZone.isValidZone builds an Intl.DateTimeFormat on every call; remember the answer per zone. */
export function memoiseZoneValidity(): () => void {
  const original = IANAZone.isValidZone.bind(IANAZone);
  const memo = new Map<string, boolean>();
  IANAZone.isValidZone = (zone: string) => {
    let v = memo.get(zone);
    if (v === undefined) memo.set(zone, (v = original(zone)));
    return v;
  };
  return () => {
    IANAZone.isValidZone = original;
  };
}

/**
 * IANAZone#offset asks Intl.DateTimeFormat#formatToParts for every instant (luxon's partsOffset).
 * Offsets depend on the zone and the instant only, and availability asks about the same
 * 15-minute grid instants for every expert in a zone, every request: remember them (bounded).
 */
export function memoiseZoneOffsets(limit = 200_000): () => void {
  const proto = IANAZone.prototype as unknown as { offset: (this: IANAZone, ts: number) => number };
  const original = proto.offset;
  const memo = new Map<string, number>();
  proto.offset = function (this: IANAZone, ts: number) {
    const key = `${this.name} ${ts}`;
    let v = memo.get(key);
    if (v === undefined) {
      v = original.call(this, ts);
      if (memo.size >= limit) memo.clear();
      memo.set(key, v);
    }
    return v;
  };
  return () => {
    proto.offset = original;
  };
}
