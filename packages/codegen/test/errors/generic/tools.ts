/** Generic tools cannot be described by one schema. */
export function identity<T>(value: T): T {
  return value;
}
