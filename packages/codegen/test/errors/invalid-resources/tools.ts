/**
 * A prompt that returns a number.
 * @prompt
 */
export function count(n: number): number {
  return n;
}

/**
 * A resource that returns nothing.
 * @resource app://nothing
 */
export function nothing(): void {}

/**
 * A prompt tag with a value.
 * @prompt greeting
 */
export function greet(name: string): string {
  return name;
}

/**
 * Both tags.
 * @resource app://both
 * @prompt
 */
export function both(): string {
  return "";
}

/**
 * A priority out of range.
 * @resource app://ranked
 * @priority 2
 */
export function ranked(): string {
  return "";
}

/**
 * An unknown audience.
 * @resource app://audience
 * @audience bots
 */
export function audience(): string {
  return "";
}

/**
 * An icon without a source.
 * @resource app://iconic
 * @icon
 */
export function iconic(): string {
  return "";
}
