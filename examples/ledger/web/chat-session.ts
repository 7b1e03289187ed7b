import {
  type Agent,
  type AgentMessage,
  createAgent,
  type ModelProvider,
  type PermissionContext,
  type PermissionDecision,
  type ToolSource,
} from "@mcp-gen/runtime/agent";
import { type PageEvent, toPageEvent } from "./page-events.ts";

/** The demo's instructions to the model; `user` is the account transfers come from by default. */
export function systemPrompt(user: string): string {
  return [
    `You are the assistant of a demo ETH ledger. The user is the account \`${user}\` (the default sender).`,
    "Use the ledger tools: get_balance, list_accounts, list_transactions, transfer_eth and faucet.",
    'Amounts are exact decimal strings such as "10" or "0.25"; never round them.',
    "transfer_eth moves money: call it only when the user asked for the transfer; the user approves",
    "or denies every transfer in the page. If a transfer is denied, do not retry it.",
    "Answer in the user's language, briefly.",
  ].join("\n");
}

export interface ChatSessionOptions {
  model: ModelProvider;
  /** The ledger tools (an MCP client source). */
  tools: ToolSource;
  system: string;
  /** Read after every tool result and sent to the page. */
  balances: () => Promise<PageEvent & { type: "balances" }>;
}

/**
 * One browser tab's conversation: an agent whose `canUseTool` waits for the user's answer in
 * the page (`decide`), and the history that continues the conversation on the next message.
 */
export class ChatSession {
  readonly #agent: Agent;
  readonly #balances: ChatSessionOptions["balances"];
  readonly #pending = new Map<string, (decision: PermissionDecision) => void>();
  #history: AgentMessage[] = [];
  /** Messages running or waiting for the one before them. */
  #active = 0;
  #idle: Promise<void> = Promise.resolve();
  /** When the session was last used (the server drops the oldest ones). */
  lastUsed = Date.now();

  constructor(options: ChatSessionOptions) {
    this.#balances = options.balances;
    this.#agent = createAgent({
      model: options.model,
      tools: [options.tools],
      system: options.system,
      stream: true,
      canUseTool: (_name, _args, _annotations, context) => this.#ask(context),
    });
  }

  get running(): boolean {
    return this.#active > 0;
  }

  /**
   * Runs one user message and yields what the page shows; a message sent while another runs
   * waits for it (one conversation, one run at a time). The run ends early when `signal` aborts
   * (the page went away); calls waiting for a decision are then denied.
   */
  async *send(message: string, signal: AbortSignal): AsyncGenerator<PageEvent> {
    this.#active++;
    const previous = this.#idle;
    let done!: () => void;
    this.#idle = new Promise((resolve) => {
      done = resolve;
    });
    try {
      await previous;
      this.lastUsed = Date.now();
      const events = this.#agent.run(message, { history: this.#history, signal });
      for await (const event of events) {
        const shown = toPageEvent(event);
        if (shown) yield shown;
        if (event.type === "tool-result") yield await this.#balances();
        if (event.type === "final") this.#history = event.result.messages;
      }
    } finally {
      this.#active--;
      done();
    }
  }

  /** The user's answer to a permission request; false when no call with this id is waiting. */
  decide(callId: string, allow: boolean): boolean {
    const resolve = this.#pending.get(callId);
    if (!resolve) return false;
    resolve(
      allow ? { behavior: "allow" } : { behavior: "deny", reason: "the user denied it in the web chat" },
    );
    return true;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  #ask(context: PermissionContext): Promise<PermissionDecision> {
    const gone: PermissionDecision = {
      behavior: "deny",
      reason: "the page was closed before the user decided",
    };
    if (context.signal.aborted) return Promise.resolve(gone);
    return new Promise((resolve) => {
      const settle = (decision: PermissionDecision) => {
        this.#pending.delete(context.callId);
        context.signal.removeEventListener("abort", onAbort);
        resolve(decision);
      };
      const onAbort = () => settle(gone);
      context.signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(context.callId, settle);
    });
  }
}
