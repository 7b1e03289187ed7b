/** A property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * A JSDoc block for the given lines, each output line prefixed with `indent`, ending with a
 * newline; empty when there is no text. `*\/` in the text is escaped.
 */
export function jsdoc(lines: readonly (string | undefined)[], indent = ""): string {
  const text = lines.filter((l): l is string => l !== undefined && l !== "").join("\n");
  if (!text) return "";
  const split = text.replace(/\*\//g, "*\\/").split("\n");
  if (split.length === 1) return `${indent}/** ${split[0]} */\n`;
  return `${indent}/**\n${split.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join("\n")}\n${indent} */\n`;
}

/** `//` comments for the given lines (the model's form of `jsdoc`), each ending with a newline. */
export function lineComments(lines: readonly (string | undefined)[]): string {
  const text = lines.filter((l): l is string => l !== undefined && l !== "").join("\n");
  if (!text) return "";
  return `${text
    .split("\n")
    .map((l) => `// ${l}`.trimEnd())
    .join("\n")}\n`;
}
