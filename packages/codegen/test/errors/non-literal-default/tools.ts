/** Default computed at run time. */
export function since(start: number = Date.now()): number {
  return start;
}
