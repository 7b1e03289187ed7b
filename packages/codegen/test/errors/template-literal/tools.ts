/** A string mapping type has no pattern JSON Schema can check. */
export function shout(word: Uppercase<string>): void {
  void word;
}

/** Nor has a template literal with such a part. */
export function tag(id: `#${Lowercase<string>}`): void {
  void id;
}
