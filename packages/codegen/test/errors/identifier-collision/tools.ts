/** The sum of two numbers. */
export function get_sum(a: number, b: number): number {
  return a + b;
}

/** The sum of two numbers, again. */
export function getSum(a: number, b: number): number {
  return a + b;
}
