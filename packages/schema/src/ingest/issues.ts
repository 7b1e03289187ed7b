import type { DiagnosticCode } from "../diagnostics.ts";

/**
 * Something normalising a schema reported, at a pointer of the schema as it was (`from`) and
 * as it is after normalising (`to`): a pulled contract is written normalised, so it names `to`;
 * a hand-written one stays as written, so it names `from`.
 */
export interface IngestIssue {
  code: DiagnosticCode;
  pointer: { from: string; to: string };
  message: string;
}
