/**
 * How to map a dialect's arguments back to the canonical input; the same shape as
 * `ArgumentPlan` in `@mcp-gen/runtime`, which applies it.
 */
export interface Plan {
  nullMeansAbsent?: true;
  json?: true;
  properties?: Record<string, Plan>;
  items?: Plan;
  prefixItems?: Plan[];
  anyOf?: (Plan & { keys?: string[] })[];
}

/** Whether a plan changes anything (plans that only carry `keys` do not). */
export function isActive(plan: Plan | undefined): boolean {
  if (!plan) return false;
  if (plan.nullMeansAbsent || plan.json) return true;
  if (plan.items && isActive(plan.items)) return true;
  if (plan.prefixItems?.some(isActive)) return true;
  if (plan.anyOf?.some(isActive)) return true;
  return Object.values(plan.properties ?? {}).some(isActive);
}
