/**
 * An expression that is never closed.
 * @resource app://items/{id
 */
export function unclosed(id: string): string {
  return id;
}

/**
 * A reserved operator.
 * @resource app://items/{=id}
 */
export function reserved(id: string): string {
  return id;
}

/**
 * No scheme.
 * @resource items/status
 */
export function no_scheme(): string {
  return "ok";
}

/**
 * No URI at all.
 * @resource
 */
export function empty(): string {
  return "";
}

/**
 * A variable without its parameter.
 * @resource app://users/{user}/posts/{post}
 */
export function post(user: string): string {
  return user;
}

/**
 * A parameter without its variable.
 * @resource app://users/{user}
 */
export function user(user: string, verbose: boolean): string {
  return `${user}${verbose}`;
}

/**
 * A static resource with a parameter.
 * @resource app://status
 */
export function status(detail: string): string {
  return detail;
}
