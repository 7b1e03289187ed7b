/** A Map is not JSON. */
export function counts(values: Map<string, number>): void {
  void values;
}

/** Nor a Set. */
export function unique(values: Set<string>): void {
  void values;
}
