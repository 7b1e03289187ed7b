/** Overloads. */
export function parse(value: string): number;
export function parse(value: number): number;
export function parse(value: string | number): number {
  return Number(value);
}
