/**
 * An object variable.
 * @resource app://filters/{filter}
 */
export function filter(filter: { name: string }): string {
  return filter.name;
}

/**
 * A list argument.
 * @prompt
 */
export function summarize(lines: string[]): string {
  return lines.join("\n");
}

/**
 * A number literal union.
 * @prompt
 */
export function rate(stars: 1 | 2 | 3): string {
  return `${stars}`;
}

/**
 * A date.
 * @resource app://days/{day}
 */
export function day(day: Date): string {
  return day.toISOString();
}

/**
 * A destructured argument.
 * @prompt
 */
export function greet({ name }: { name: string }): string {
  return name;
}
