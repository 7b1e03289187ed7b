// A help desk's tools, written by hand as a team would (not by mcp-gen's corpus generators): the
// held-out corpus of bench/corpus-heldout.ts. No import from mcp-gen, no Node API.

export enum Priority {
  Low = "low",
  Normal = "normal",
  High = "high",
  Urgent = "urgent",
}

export type TicketStatus = "open" | "pending" | "solved" | "closed";

export interface Requester {
  name: string;
  email: string;
  /** Customer organisation, when known. */
  organisation?: string;
}

export interface Ticket {
  id: number;
  subject: string;
  status: TicketStatus;
  priority: Priority;
  requester: Requester;
  tags: string[];
  createdAt: Date;
  assignee: string | null;
}

export interface TicketFilter {
  status?: TicketStatus[];
  priority?: Priority;
  /** Only tickets carrying every one of these tags. */
  tags?: readonly string[];
  assignee?: string | null;
  createdAfter?: Date;
}

const tickets: Ticket[] = [];

/**
 * Searches tickets.
 * @param query Free text matched against subjects.
 * @param filter Narrows the search.
 * @param limit At most this many tickets (1–100).
 */
export async function searchTickets(
  query: string,
  filter: TicketFilter = {},
  limit: number = 20,
): Promise<Ticket[]> {
  return tickets
    .filter((t) => t.subject.includes(query) && (!filter.priority || t.priority === filter.priority))
    .slice(0, limit);
}

/**
 * Opens a ticket for a customer.
 * @param subject One line.
 * @param body What the customer wrote.
 */
export async function createTicket(
  subject: string,
  body: string,
  requester: Requester,
  priority: Priority = Priority.Normal,
): Promise<Pick<Ticket, "id" | "status">> {
  return { id: subject.length + body.length + requester.name.length, status: priority ? "open" : "pending" };
}

/** Changes a ticket's status, priority or assignee; fields left out stay as they are. */
export function updateTicket(
  id: number,
  changes: Partial<Pick<Ticket, "status" | "priority" | "assignee">>,
): { id: number; updated: (keyof typeof changes)[] } {
  return { id, updated: Object.keys(changes) as (keyof typeof changes)[] };
}

export type Reply =
  | { kind: "public"; body: string; attachments?: { name: string; url: string }[] }
  | { kind: "internal"; note: string; mention?: string[] };

/** Adds a public reply or an internal note to a ticket. */
export async function addReply(
  ticketId: number,
  reply: Reply,
): Promise<{ ticketId: number; position: number }> {
  return { ticketId, position: reply.kind === "public" ? 1 : 0 };
}

/**
 * Merges duplicate tickets into one.
 * @param target The ticket that stays.
 * @param sources Tickets closed into it.
 */
export function mergeTickets(
  target: number,
  sources: [number, ...number[]],
): { merged: number[]; target: number } {
  return { merged: sources, target };
}

export interface SlaReport {
  period: { from: Date; to: Date };
  breached: number;
  /** Median first-reply time per priority, in minutes. */
  medianFirstReply: Record<Priority, number>;
}

/** Service-level figures for a period. */
export function slaReport(from: Date, to: Date): SlaReport {
  return {
    period: { from, to },
    breached: 0,
    medianFirstReply: { low: 0, normal: 0, high: 0, urgent: 0 },
  };
}

/** Assigns tickets to agents, round robin. */
export function assignTickets(
  ticketIds: number[],
  agents: string[],
  options?: { skipAway?: boolean; maxPerAgent?: number },
): Array<{ ticketId: number; agent: string }> {
  return ticketIds.map((ticketId, i) => ({
    ticketId,
    agent: agents[i % agents.length] ?? String(options?.maxPerAgent ?? ""),
  }));
}

/** Tags used on tickets, with how often. */
export function listTags(prefix?: string): { tag: string; count: number }[] {
  return [{ tag: prefix ?? "", count: 0 }];
}
