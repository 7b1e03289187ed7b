/** A tag value that is not a number. */
export function size(options: {
  /** @minimum abc */
  size: number;
}): void {
  void options;
}

/** A string tag on a number. */
export function count(options: {
  /** @minLength 3 */
  count: number;
}): void {
  void options;
}

/** An unknown format. */
export function color(options: {
  /** @format colour */
  color: string;
}): void {
  void options;
}

/** A pattern that is not a regular expression. */
export function name(options: {
  /** @pattern ([a-z */
  name: string;
}): void {
  void options;
}

/** An annotation with a value it does not take. */
/** @readOnly sometimes */
export function annotated(): void {}
