/**
 * The 2025-era session table of Streamable HTTP, built so that a flood of `initialize` requests
 * cannot lock other clients out: when the table (or one client's share of it) is full, the least
 * recently used *idle* session makes room — a session with a call in flight is never evicted.
 */
export interface SessionEntry<T> {
  value: T;
  /** Who opened it: the client's address (or, with authentication, its principal). */
  client: string;
  /** Calls (POST requests) being answered now. */
  inFlight: number;
  lastSeen: number;
}

export class SessionTable<T> {
  /** In least-recently-used order: a touched session moves to the end. */
  readonly #entries = new Map<string, SessionEntry<T>>();
  readonly #perClient = new Map<string, number>();

  constructor(
    private readonly limits: { maxSessions: number; maxSessionsPerClient: number },
    private readonly evict: (id: string, entry: SessionEntry<T>) => void,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(id: string): SessionEntry<T> | undefined {
    return this.#entries.get(id);
  }

  /** Marks the session used now (it becomes the most recently used). */
  touch(id: string, now: number): SessionEntry<T> | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    entry.lastSeen = now;
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry;
  }

  /**
   * Makes room for a new session of `client`: evicts that client's least recently used idle
   * session when it is at its share, else the table's when the table is full. `false` when
   * there is no idle session to evict (every one has a call in flight).
   */
  makeRoom(client: string): boolean {
    if ((this.#perClient.get(client) ?? 0) >= this.limits.maxSessionsPerClient) {
      return this.#evictIdle((entry) => entry.client === client);
    }
    if (this.#entries.size >= this.limits.maxSessions) return this.#evictIdle(() => true);
    return true;
  }

  add(id: string, value: T, client: string, now: number): void {
    this.#entries.set(id, { value, client, inFlight: 0, lastSeen: now });
    this.#perClient.set(client, (this.#perClient.get(client) ?? 0) + 1);
  }

  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    const left = (this.#perClient.get(entry.client) ?? 1) - 1;
    if (left > 0) this.#perClient.set(entry.client, left);
    else this.#perClient.delete(entry.client);
  }

  /** Sessions unused for longer than `idleMs` with nothing in flight. */
  stale(now: number, idleMs: number): [string, SessionEntry<T>][] {
    return [...this.#entries].filter(([, e]) => e.inFlight === 0 && now - e.lastSeen > idleMs);
  }

  values(): IterableIterator<SessionEntry<T>> {
    return this.#entries.values();
  }

  #evictIdle(matches: (entry: SessionEntry<T>) => boolean): boolean {
    for (const [id, entry] of this.#entries) {
      if (entry.inFlight === 0 && matches(entry)) {
        this.delete(id);
        this.evict(id, entry);
        return true;
      }
    }
    return false;
  }
}

/**
 * Requests per client address, as a token bucket: `requests` may come at once, then one every
 * `perMs / requests` ms. Addresses seen longest ago are forgotten beyond 10 000.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limit: { requests: number; perMs: number }) {}

  /** `0` when the request may go on, else the seconds until the client may try again. */
  take(client: string, now: number): number {
    const { requests, perMs } = this.limit;
    const rate = requests / perMs;
    const bucket = this.#buckets.get(client) ?? { tokens: requests, at: now };
    bucket.tokens = Math.min(requests, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.#buckets.delete(client);
    this.#buckets.set(client, bucket);
    if (this.#buckets.size > 10_000) this.#buckets.delete(this.#buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
  }
}
