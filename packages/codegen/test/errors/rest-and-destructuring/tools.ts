/** Rest parameter. */
export function sum(...values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Destructured plus another parameter. */
export function mixed({ a }: { a: string }, b: number): string {
  return `${a}${b}`;
}
