/** A small seeded PRNG (mulberry32) so a failing random run can be replayed from its seed. */
export function createRandom(seed: number): {
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
} {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (maxExclusive) => Math.floor(next() * maxExclusive),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** A random amount below `maxEth` ETH with up to 18 decimals, as the decimal string a caller sends. */
export function randomAmount(random: ReturnType<typeof createRandom>, maxEth: number): string {
  const whole = random.int(maxEth);
  const decimals = random.int(19);
  const fraction = Array.from({ length: decimals }, () => random.int(10)).join("");
  const amount = fraction ? `${whole}.${fraction}` : `${whole}`;
  return /^[0.]*$/.test(amount) ? "1" : amount;
}
