/**
 * Vocabulary entries keyed by their token's int32 hash (word-index.ts), in an open-addressing
 * table over a typed array. A sync looks up every word of every record here; a `Map` keyed by
 * the hash boxed half of them (an int32 outside V8's small-integer range is a heap number) and
 * hashed the box again, and that lookup was the worker's largest single CPU item (bench/README.md,
 * session 26). The first entry stored under a hash keeps it, as the `Map` did.
 */

/** The fields the memo reads of an entry. */
export interface Hashed {
  readonly hash: number;
}

const EMPTY = 0;
/** Slots per entry at most, before the table doubles: short probe runs. */
const LOAD = 2;

/** A table of entries by hash; grows, never shrinks (callers drop whole tables). */
export class WordMemo<E extends Hashed> {
  // Each slot holds an entry's index + 1, or EMPTY.
  private slots: Int32Array;
  private shift: number;
  private readonly entries: E[] = [];

  constructor(capacity = 256) {
    let bits = 4;
    while (1 << bits < capacity * LOAD) bits++;
    this.slots = new Int32Array(1 << bits);
    this.shift = 32 - bits;
  }

  /** Entries held. */
  get size(): number {
    return this.entries.length;
  }

  /** The entry stored under `hash`, if any. */
  get(hash: number): E | undefined {
    const mask = this.slots.length - 1;
    for (let i = this.home(hash); ; i = (i + 1) & mask) {
      const at = this.slots[i] as number;
      if (at === EMPTY) return undefined;
      const e = this.entries[at - 1] as E;
      if (e.hash === hash) return e;
    }
  }

  /** Stores `entry` unless an entry with its hash is held; whether it was stored. */
  add(entry: E): boolean {
    if ((this.entries.length + 1) * LOAD > this.slots.length) this.grow();
    const mask = this.slots.length - 1;
    for (let i = this.home(entry.hash); ; i = (i + 1) & mask) {
      const at = this.slots[i] as number;
      if (at === EMPTY) {
        this.entries.push(entry);
        this.slots[i] = this.entries.length;
        return true;
      }
      if ((this.entries[at - 1] as E).hash === entry.hash) return false;
    }
  }

  // Fibonacci hashing: the top bits of the product spread hashes that differ only in low bits.
  private home(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.shift--;
    const mask = this.slots.length - 1;
    for (let n = 0; n < this.entries.length; n++) {
      let i = this.home((this.entries[n] as E).hash);
      while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
      this.slots[i] = n + 1;
    }
  }
}
