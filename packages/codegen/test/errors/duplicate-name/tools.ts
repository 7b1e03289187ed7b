/**
 * First.
 * @name lookup
 */
export function lookupA(): void {}

/**
 * Second.
 * @name lookup
 */
export function lookupB(): void {}
