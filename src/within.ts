/** A promise bounded in time: the one place the service stops waiting on something that may never answer. */

/** `p`, or `late()` thrown after `ms` (the timer never outlives the race). */
export async function within<T>(p: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([p, expired]);
  } finally {
    clearTimeout(timer);
  }
}
