/** Symbols and bigints are not JSON. */
export function keys(key: symbol): void {
  void key;
}

/** Neither is bigint. */
export function big(amount: bigint): void {
  void amount;
}
