/**
 * Runs in the background.
 * @task always
 */
export function background(): string {
  return "done";
}
