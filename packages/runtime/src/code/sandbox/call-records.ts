import type { ProgramCallOutcome, ProgramCallRecord } from "./types.ts";

const OUTCOMES: readonly ProgramCallOutcome[] = [
  "ok",
  "invalid-arguments",
  "denied",
  "tool-error",
  "invalid-result",
  "cancelled",
];
const CODE: Readonly<Record<ProgramCallOutcome, number>> = Object.fromEntries(
  OUTCOMES.map((outcome, code) => [outcome, code]),
) as Record<ProgramCallOutcome, number>;
const CANCELLED = CODE.cancelled;
/** Not answered yet. */
const OPEN = -1;

/**
 * The calls of one run, kept as columns — the namespace, function and arguments the call already
 * has, its start and duration as numbers, an outcome code, the rare error text by index — so a
 * call adds no object of its own. `ProgramCallRecord`s are made when someone reads them
 * (`RunResult.calls`), once per run.
 */
export class CallRecords {
  private readonly namespaces: string[] = [];
  private readonly fns: string[] = [];
  private readonly args: unknown[] = [];
  private readonly started: number[] = [];
  private readonly ms: number[] = [];
  private readonly outcomes: number[] = [];
  private readonly errors = new Map<number, string>();

  get length(): number {
    return this.outcomes.length;
  }

  /** A call leaving the sandbox now; its index. */
  open(namespace: string, fn: string, args: unknown): number {
    this.namespaces.push(namespace);
    this.fns.push(fn);
    this.args.push(args);
    this.started.push(performance.now());
    this.ms.push(0);
    return this.outcomes.push(OPEN) - 1;
  }

  /** `namespace.fn` of a call. */
  toolOf(index: number): string {
    return `${this.namespaces[index]}.${this.fns[index]}`;
  }

  /** A call the program started but never awaited: recorded, never run. */
  unrun(namespace: string, fn: string, args: unknown): void {
    const index = this.open(namespace, fn, args);
    this.outcomes[index] = CANCELLED;
    this.errors.set(index, "not run: the program ended without awaiting it");
  }

  /** How an open call ended (`error`: what the program was told). */
  close(index: number, outcome: ProgramCallOutcome, error?: string): void {
    this.ms[index] = performance.now() - this.started[index]!;
    this.outcomes[index] = CODE[outcome];
    if (error !== undefined) this.errors.set(index, error);
  }

  /** The run is over: calls still open were cancelled, their time counted until now. */
  end(): void {
    const now = performance.now();
    for (let i = 0; i < this.outcomes.length; i++)
      if (this.outcomes[i] === OPEN) {
        this.outcomes[i] = CANCELLED;
        this.ms[i] = now - this.started[i]!;
      }
  }

  /** The records as the caller sees them. */
  list(): ProgramCallRecord[] {
    const records: ProgramCallRecord[] = [];
    const now = performance.now();
    for (let i = 0; i < this.outcomes.length; i++) {
      const code = this.outcomes[i]!;
      const open = code === OPEN;
      const error = this.errors.get(i);
      records.push({
        tool: `${this.namespaces[i]}.${this.fns[i]}`,
        arguments: this.args[i],
        outcome: OUTCOMES[open ? CANCELLED : code]!,
        ms: open ? now - this.started[i]! : this.ms[i]!,
        ...(error === undefined ? {} : { error }),
      });
    }
    return records;
  }
}
