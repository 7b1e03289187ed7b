/** Returns the wrong type. */
export function wrong(a: string): number {
  return a;
}
