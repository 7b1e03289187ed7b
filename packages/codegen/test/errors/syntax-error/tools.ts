/** Broken. */
export function broken(a: string {
  return a;
}
