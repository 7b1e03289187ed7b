/**
 * The status.
 * @resource app://status
 */
export function status(): string {
  return "ok";
}

/**
 * The status again.
 * @resource app://status
 */
export function status_again(): string {
  return "ok";
}

/**
 * A template named like the resource.
 * @resource app://status/{part}
 * @name status
 */
export function status_part(part: string): string {
  return part;
}

/**
 * A prompt.
 * @prompt
 */
export function ask(question: string): string {
  return question;
}

/**
 * Another prompt with the same name.
 * @prompt
 * @name ask
 */
export function ask_again(question: string): string {
  return question;
}
