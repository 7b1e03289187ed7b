/**
 * Explains a topic.
 * @prompt
 */
export function explain(topic: string, level: "basic" | "expert"): string {
  return `${topic} ${level}`;
}

/**
 * A file.
 * @resource app://files/{path}
 */
export function file(path: string): string {
  return path;
}

/**
 * Completes a prompt that does not exist.
 * @complete explian topic
 */
export function unknown_prompt(value: string): string[] {
  return [value];
}

/**
 * Completes an argument the prompt does not have.
 * @complete explain subject
 */
export function unknown_argument(value: string): string[] {
  return [value];
}

/**
 * Completes a template that does not exist.
 * @complete app://files/{name} name
 */
export function unknown_template(value: string): string[] {
  return [value];
}

/**
 * Returns numbers.
 * @complete explain topic
 */
export function numbers(value: string): number[] {
  return [value.length];
}

/**
 * Takes a number.
 * @complete app://files/{path} path
 */
export function number_value(value: number): string[] {
  return [String(value)];
}

/**
 * A second completer of one argument.
 * @complete explain level
 */
export function first_level(): string[] {
  return ["basic"];
}

/**
 * And another.
 * @complete explain level
 */
export function second_level(): string[] {
  return ["expert"];
}

/**
 * No argument named.
 * @complete explain
 */
export function no_argument(): string[] {
  return [];
}
