/**
 * A scope tag without a scope.
 * @scope
 */
export function empty(): void {}

/**
 * A scope with a quote in it.
 * @scope notes:"write"
 */
export function quoted(): void {}
