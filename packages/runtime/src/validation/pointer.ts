/** Splits a JSON pointer ("/a/0/b~1c") into unescaped tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Joins tokens into an escaped JSON pointer. */
export function joinPointer(base: string, token: string | number): string {
  return `${base}/${String(token).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Reads the value a JSON pointer designates, or `undefined` when there is none. */
export function valueAt(data: unknown, pointer: string): unknown {
  let current = data;
  for (const token of parsePointer(pointer)) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.hasOwn(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}
