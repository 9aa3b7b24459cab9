/**
 * A set of words, each a path id and its characters, held in typed arrays: an open-addressing
 * table of slots (the word's index hash, path id, and where its characters start and how many)
 * and one array of UTF-16 units the characters are copied into. A sync asks it about every word
 * of every record. It holds no JavaScript object per word: until session 29 the vocabulary memo
 * kept an entry object and a word string each, about a third of the worker's live heap, which
 * every full collection marked and which young collections promoted word by word
 * (bench/README.md). Membership is exact: the hash only places a word, its path and characters
 * decide (a word whose hash another one took is still told apart).
 */

/** Int32s per slot: hash, path id + 1 (0: empty), characters' offset, length. */
const SLOT = 4;
/** Slots per word at most, before the table doubles: short probe runs. */
const LOAD = 2;

/** Words (path id, characters) placed by an int32 hash of them; grows, never shrinks (callers drop or clear it). */
export class WordSet {
  private slots: Int32Array;
  private shift: number;
  private chars: Uint16Array;
  private used = 0;
  private count = 0;

  constructor(capacity = 256) {
    let bits = 4;
    while (1 << bits < capacity * LOAD) bits++;
    this.slots = new Int32Array((1 << bits) * SLOT);
    this.shift = 32 - bits;
    this.chars = new Uint16Array(capacity * 8);
  }

  /** Words held. */
  get size(): number {
    return this.count;
  }

  /** Whether the word `text.slice(start, end)` at path `pathId`, hashed `hash`, is held. */
  has(hash: number, pathId: number, text: string, start: number, end: number): boolean {
    return this.find(hash, pathId, text, start, end) < 0;
  }

  /** Adds the word unless held; whether it was added. */
  add(hash: number, pathId: number, text: string, start: number, end: number): boolean {
    if ((this.count + 1) * LOAD * SLOT > this.slots.length) this.grow();
    const at = this.find(hash, pathId, text, start, end);
    if (at < 0) return false;
    const len = end - start;
    if (this.used + len > this.chars.length) this.growChars(len);
    const chars = this.chars;
    for (let k = 0; k < len; k++) chars[this.used + k] = text.charCodeAt(start + k);
    const slots = this.slots;
    slots[at] = hash;
    slots[at + 1] = pathId + 1;
    slots[at + 2] = this.used;
    slots[at + 3] = len;
    this.used += len;
    this.count++;
    return true;
  }

  /**
   * Reads what a lookup of `hash` will read first (its first slot, and the first character of
   * the word there) and returns it, for the caller to keep. Touching a batch of words first lets
   * the CPU wait for their cache misses together; the lookups after it find their memory cached.
   */
  touch(hash: number): number {
    // No branch: a branch on a value still in flight would make the CPU wait for it.
    const at = this.home(hash);
    return (this.slots[at] as number) + (this.chars[this.slots[at + 2] as number] as number);
  }

  /** Empties the set, keeping its arrays (a per-page scratch set). */
  clear(): void {
    this.slots.fill(0);
    this.used = 0;
    this.count = 0;
  }

  /** The slot holding the word (as -1), or the free slot where it would go. */
  private find(hash: number, pathId: number, text: string, start: number, end: number): number {
    const slots = this.slots;
    const mask = slots.length - SLOT;
    const len = end - start;
    for (let at = this.home(hash); ; at = (at + SLOT) & mask) {
      const path = slots[at + 1] as number;
      if (path === 0) return at;
      if (slots[at] === hash && path === pathId + 1 && slots[at + 3] === len && this.same(slots[at + 2] as number, text, start, len)) return -1;
    }
  }

  private same(offset: number, text: string, start: number, len: number): boolean {
    const chars = this.chars;
    for (let k = 0; k < len; k++) if (chars[offset + k] !== text.charCodeAt(start + k)) return false;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const slots = (this.slots = new Int32Array(old.length * 2));
    this.shift--;
    const mask = slots.length - SLOT;
    // Copied field by field: a subarray view per moved word was an allocation each, and most of
    // what growing cost the worker (session 52's profile).
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + 1] === 0) continue;
      let at = this.home(old[from] as number);
      while (slots[at + 1] !== 0) at = (at + SLOT) & mask;
      for (let k = 0; k < SLOT; k++) slots[at + k] = old[from + k] as number;
    }
  }

  /** The first slot a word of `hash` may sit in. Fibonacci hashing: the top bits of the product spread hashes that differ only in low bits. */
  private home(hash: number): number {
    return (Math.imul(hash, 0x9e3779b1) >>> this.shift) * SLOT;
  }

  private growChars(need: number): void {
    const grown = new Uint16Array(Math.max(this.chars.length * 2, this.used + need));
    grown.set(this.chars.subarray(0, this.used));
    this.chars = grown;
  }
}
