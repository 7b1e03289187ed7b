/** Markdown tables of bench/installed.ts: one per measurement, the worst row against its peer first. */
import type { Row } from "./measure.ts";

export interface Table {
  title: string;
  /** Unit of the wall and CPU columns. */
  unit: "s" | "ms";
  notes: string[];
  loadStart: number[];
  loadEnd: number[];
  rows: Row[];
}

const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");

/** Rows that have a peer, by wall-time ratio against it (worst first), then the peers and floors. */
export function ordered(rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ratio = (r: Row) => r.wallMs / byId.get(r.peer!)!.wallMs;
  return [...rows.filter((r) => r.peer).sort((a, b) => ratio(b) - ratio(a)), ...rows.filter((r) => !r.peer)];
}

export function formatTable(table: Table): string {
  const byId = new Map(table.rows.map((r) => [r.id, r]));
  const scale = table.unit === "s" ? 1000 : 1;
  const digits = table.unit === "s" ? 2 : 0;
  const time = (ms: number | undefined) => (ms === undefined ? "n/a" : (ms / scale).toFixed(digits));
  const lines = [
    `### ${table.title}`,
    "",
    ...table.notes.flatMap((n) => [n, ""]),
    `Load average (1, 5, 15 min): ${load(table.loadStart)} at the start, ${load(table.loadEnd)} at the end.`,
    "",
    `| command | wall (${table.unit}) | CPU user+sys (${table.unit}) | peak RSS (MB) | wall ÷ peer | CPU ÷ peer |`,
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of ordered(table.rows)) {
    const peer = r.peer ? byId.get(r.peer) : undefined;
    const wallRatio = peer ? (r.wallMs / peer.wallMs).toFixed(2) : "peer";
    const cpuRatio =
      peer?.cpuMs && r.cpuMs !== undefined ? (r.cpuMs / peer.cpuMs).toFixed(2) : peer ? "n/a" : "peer";
    const rss = r.peakRssMb === undefined ? "n/a" : r.peakRssMb.toFixed(0);
    const isFloor = r.id.startsWith("floor");
    lines.push(
      `| ${r.label} | ${time(r.wallMs)} | ${time(r.cpuMs)} | ${rss} | ${isFloor ? "–" : wallRatio} | ${isFloor ? "–" : cpuRatio} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
