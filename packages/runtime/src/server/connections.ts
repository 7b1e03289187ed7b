import type { ProtocolEra, Server } from "@modelcontextprotocol/server";
import type { McpGenServerEvent } from "./options.ts";

/**
 * Where change notifications of 2026-07-28 clients over HTTP go: the `notify` of the SDK's
 * `createMcpHandler`, which feeds its `subscriptions/listen` streams.
 */
export interface ListenRelay {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/** A live connection: its server, era and (2025) the resources it subscribed to. */
interface Connection {
  era: ProtocolEra;
  subscriptions: Set<string>;
}

/**
 * The live connections of one server factory (stdio and in-memory connections of either era,
 * 2025 HTTP sessions) and the listen relays of its HTTP entries: who hears about changes.
 *
 * - A 2025 connection hears `notifications/resources/updated` only for the URIs it sent
 *   `resources/subscribe` for; list changes unsolicited.
 * - A 2026-07-28 stdio connection gets every notification from its server, and the SDK's
 *   stdio entry passes on only what the client asked for on `subscriptions/listen`.
 * - 2026-07-28 HTTP clients listen through the relay (their per-request servers are not here).
 */
export class Connections {
  readonly #live = new Map<Server, Connection>();
  readonly #relays = new Set<ListenRelay>();

  constructor(private readonly report: (event: McpGenServerEvent) => void) {}

  /** Tracks a connection's server until it closes. */
  add(server: Server, era: ProtocolEra): void {
    this.#live.set(server, { era, subscriptions: new Set() });
    const closed = server.onclose;
    server.onclose = () => {
      this.#live.delete(server);
      closed?.();
    };
  }

  relay(relay: ListenRelay): void {
    this.#relays.add(relay);
  }

  /** `resources/subscribe` of a 2025 client: `false` when the server is not a live connection (stateless HTTP). */
  subscribe(server: Server, uri: string): boolean {
    const connection = this.#live.get(server);
    connection?.subscriptions.add(uri);
    return connection !== undefined;
  }

  unsubscribe(server: Server, uri: string): void {
    this.#live.get(server)?.subscriptions.delete(uri);
  }

  /** `notifications/resources/updated` for every subscriber of `uri`. */
  resourceUpdated(uri: string): void {
    for (const [server, connection] of this.#live) {
      if (!server.getCapabilities().resources) continue;
      if (connection.era === "legacy" && !connection.subscriptions.has(uri)) continue;
      this.#send(server.sendResourceUpdated({ uri }));
    }
    for (const relay of this.#relays) relay.resourceUpdated(uri);
  }

  /** The list-changed notifications of the lists that changed, to every connection that has them. */
  listsChanged(changed: { tools: boolean; resources: boolean; prompts: boolean }): void {
    for (const server of this.#live.keys()) {
      const capabilities = server.getCapabilities();
      if (changed.tools && capabilities.tools) this.#send(server.sendToolListChanged());
      if (changed.resources && capabilities.resources) this.#send(server.sendResourceListChanged());
      if (changed.prompts && capabilities.prompts) this.#send(server.sendPromptListChanged());
    }
    for (const relay of this.#relays) {
      if (changed.tools) relay.toolsChanged();
      if (changed.resources) relay.resourcesChanged();
      if (changed.prompts) relay.promptsChanged();
    }
  }

  #send(sent: Promise<void>): void {
    sent.catch((error: unknown) => this.report({ kind: "protocol", error: error as Error }));
  }
}
