/**
 * Tool templates of the synthetic corpus: each takes a unique suffix and returns the source of
 * one exported tool function with the types it declares. Together they cover every row of the
 * type-mapping table of issue 2; the module prelude (`corpus-gen.ts`) declares the shared
 * `Status`/`Level` enums, the `Owner` interface and a `sample<T>()` helper.
 */

/** Source text of one tool (and its own declarations). */
export type ToolSource = string;

export type Template = (id: string) => ToolSource;

const search: Template = (id) => `/** A record found by search_items_${id}. */
export interface Item${id} {
  /** Stable id. */
  id: string;
  /** Display name. */
  name: string;
  /** Free-form labels. */
  tags: string[];
  /** When the record was created. */
  createdAt: Date;
  /** Relevance; null when not ranked. */
  score: number | null;
  status: Status;
}

/**
 * Search items by a free-text query and return the best matches.
 *
 * @param query Words to look for
 * @param limit Maximum number of results
 * @param includeArchived Whether archived items are searched too
 * @readOnly
 */
export async function search_items_${id}(
  query: string & MinLength<1> & MaxLength<200>,
  limit: Int & Minimum<1> & Maximum<100> = 10,
  includeArchived?: boolean,
): Promise<Item${id}[]> {
  const n = Math.min(limit, query.length + (includeArchived ? 1 : 0));
  return sample<Item${id}[]>([]).slice(0, n);
}
`;

const update: Template = (id) => `/** Changes to apply to a record. */
export interface Patch${id} {
  /**
   * New title.
   * @minLength 1
   * @maxLength 120
   */
  title?: string;
  status?: Status;
  /** How urgent the record is. */
  priority: "low" | "medium" | "high";
  /** Labels replacing the current ones. */
  labels: readonly string[];
  /** Numeric level. */
  level?: Level;
}

/** Outcome of update_record_${id}. */
export interface UpdateResult${id} {
  ok: boolean;
  /** Version after the update. */
  version: Int;
  owner: Owner | null;
}

/**
 * Update one record with a partial patch.
 *
 * @param id Record id
 * @param patch Fields to change
 * @idempotent
 */
export async function update_record_${id}(id: string, patch: Patch${id}): Promise<UpdateResult${id}> {
  return { ok: patch.labels.length >= 0 && id !== "", version: 1, owner: null };
}
`;

const geo: Template = (id) => `/**
 * Distance in the chosen unit from a point to the nearest depot.
 *
 * @param point Latitude and longitude
 * @param radiusKm Search radius in kilometres
 * @param units Unit of the answer
 * @returns The distance
 * @readOnly
 */
export function nearest_depot_${id}(
  point: [number, number],
  radiusKm: number & ExclusiveMinimum<0> = 5,
  units: "km" | "mi" = "km",
): number {
  const [lat, lon] = point;
  return units === "km" ? Math.hypot(lat, lon) + radiusKm : (Math.hypot(lat, lon) + radiusKm) / 1.609;
}
`;

const events: Template = (id) => `/** A user interface event. */
export type UiEvent${id} =
  | { kind: "click"; x: Int; y: Int; button?: "left" | "right" }
  | { kind: "key"; key: string; modifiers: ("ctrl" | "alt" | "shift")[] }
  | { kind: "scroll"; delta: number };

/**
 * Record one user interface event.
 *
 * @param event The event
 * @param sessionId Session the event belongs to
 * @destructive
 */
export async function record_event_${id}(event: UiEvent${id}, sessionId: string & Format<"uuid">): Promise<void> {
  if (event.kind === "key" && sessionId === "") throw new Error(event.key);
}
`;

const tree: Template = (id) => `/** A node of a category tree. */
export interface TreeNode${id} {
  /** Node name. */
  name: string;
  children: TreeNode${id}[];
  /** Extra attributes. */
  meta?: Record<string, string>;
}

/**
 * Normalise a category tree: sort children and trim names.
 *
 * @param root The tree
 * @param maxDepth Depth beyond which children are dropped
 */
export async function normalise_tree_${id}(root: TreeNode${id}, maxDepth?: Int & Minimum<0>): Promise<TreeNode${id}> {
  return maxDepth === 0 ? { name: root.name.trim(), children: [] } : root;
}
`;

const settings: Template = (id) => `/** Connection settings. */
export type Settings${id} = {
  /** How often to retry. */
  retries: Int & Minimum<0> & Maximum<10>;
  /**
   * Timeout of one attempt.
   * @minimum 1
   * @default 5000
   */
  timeoutMs: number;
  level: Level;
  /** Server address. */
  url: string & Format<"uri">;
};

/**
 * Apply connection settings; numbers and switches by key, plus optional overrides.
 *
 * @param values Named values
 * @param overrides Settings replacing the defaults, or null to keep them
 * @returns Whether anything changed
 */
export function apply_settings_${id}(values: Record<string, number | boolean>, overrides: Settings${id} | null): boolean {
  return Object.keys(values).length > 0 || overrides !== null;
}
`;

const schedule: Template = (id) => `/** A scheduled job. */
export interface Schedule${id} {
  id: string;
  /** First run. */
  at: Date;
  owner: Owner;
  repeat: "daily" | "weekly" | "monthly";
  /** Runs still to come, in order. */
  upcoming: Date[];
}

/**
 * Schedule a job.
 *
 * @param at When to run first
 * @param repeat How often to repeat
 * @param note A note shown with the job
 * @param owner Who owns the job
 */
export async function schedule_job_${id}(
  at: Date,
  repeat: "daily" | "weekly" | "monthly" = "weekly",
  note: string & MaxLength<200> = "",
  owner?: Owner,
): Promise<Schedule${id}> {
  return sample({ id: note, at, owner: owner ?? { id: "", email: "" }, repeat, upcoming: [] });
}
`;

const batch: Template = (id) => `/** One operation of a batch. */
export interface Operation${id} {
  op: "add" | "remove" | "replace";
  /**
   * JSON pointer of the target.
   * @pattern ^(/[^/]*)*$
   */
  path: string;
  value?: string | number | boolean | null;
}

/** What a batch did. */
export type BatchReport${id} = {
  applied: Int;
  /** Indexes of skipped operations. */
  skipped: Int[];
  errors: { index: Int; message: string }[];
};

/**
 * Apply a batch of operations to the document store.
 *
 * @param ops Operations, applied in order
 * @param dryRun Only report what would change
 * @destructive
 */
export async function apply_batch_${id}(
  ops: Operation${id}[] & MinItems<1> & MaxItems<50>,
  dryRun: boolean = false,
): Promise<BatchReport${id}> {
  return { applied: dryRun ? 0 : ops.length, skipped: [], errors: [] };
}
`;

const sum: Template = (id) => `/**
 * Sum numbers, rounded to a precision.
 *
 * @param values Numbers to add
 * @param precision Decimal places
 * @returns The rounded sum
 * @readOnly
 * @idempotent
 */
export function sum_values_${id}(values: number[], precision: Int & Minimum<0> & Maximum<10> = 2): number {
  const factor = 10 ** precision;
  return Math.round(values.reduce((a, b) => a + b, 0) * factor) / factor;
}
`;

const page: Template = (id) => `/** One entry of a listing. */
export interface Entry${id} {
  name: string;
  /** Size in bytes. */
  size: Int & Minimum<0>;
  owner: Owner;
  modified: Date;
}

/** A page of entries. */
export interface Page${id} {
  items: Entry${id}[];
  /** Cursor of the next page, null at the end. */
  next: string | null;
  total: Int;
}

/**
 * List entries modified within a time range.
 *
 * @param range Start and end of the range
 * @param fields Fields to sort by, in order
 * @param cursor Cursor from a previous page
 * @readOnly
 * @openWorld
 */
export async function list_entries_${id}(
  range: [start: Date, end: Date],
  fields: Array<"name" | "size" | "owner"> = ["name"],
  cursor: string | null = null,
): Promise<Page${id}> {
  return { items: [], next: cursor, total: fields.length + (range[0] < range[1] ? 0 : 1) };
}
`;

const matrix: Template = (id) => `/**
 * Summary statistics of a labelled matrix.
 *
 * @param rows Matrix rows
 * @param labels Row and column labels
 */
export function matrix_stats_${id}(
  rows: number[][],
  labels: { row: string[]; col: string[]; title?: string },
): { sum: number; mean: number; shape: [Int, Int] } {
  const sum = rows.flat().reduce((a, b) => a + b, 0);
  return { sum, mean: sum / Math.max(1, rows.length), shape: [labels.row.length, labels.col.length] };
}
`;

const tags: Template = (id) => `/** A colour for labels. */
export enum Colour${id} {
  Red = "red",
  Green = "green",
  Blue = "blue",
}

/**
 * Attach tags to a record and return the resulting set.
 *
 * @param recordId Record id
 * @param tags Tags to attach
 * @param colour Colour of new tags
 * @param notify Whether watchers are notified
 */
export async function tag_record_${id}(
  recordId: string & Pattern<"^[a-z0-9-]+$">,
  tags: string[] & UniqueItems,
  colour?: Colour${id},
  notify: boolean = true,
): Promise<string[]> {
  return notify && colour ? [...tags, recordId] : tags;
}
`;

/** In the order tools take them (tool i uses template i mod 12). */
export const TEMPLATES: readonly Template[] = [
  search,
  update,
  geo,
  events,
  tree,
  settings,
  schedule,
  batch,
  sum,
  page,
  matrix,
  tags,
];
