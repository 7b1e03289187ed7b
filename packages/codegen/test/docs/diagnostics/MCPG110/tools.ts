/**
 * Sets labels on an issue.
 * @param labels label name → value
 */
export function set_labels(issue: number, labels: Record<string, string>): void {
  void issue;
  void labels;
}
