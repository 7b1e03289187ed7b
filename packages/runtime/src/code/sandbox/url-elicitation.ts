import type { ToolContext, UrlElicitation } from "../../context.ts";
import { ToolError } from "../../tool-error.ts";

/** `URLElicitationRequiredError`: a 2025 server cannot serve a call until the user opens URLs. */
export const URL_ELICITATION_REQUIRED = -32042;

/**
 * The params of a URL-mode elicitation, when the client that sent the program can open URLs
 * (`elicitation.url`); a `ToolError` the program catches otherwise, naming the URL.
 */
export function urlAble(inner: ToolContext, params: Record<string, unknown>): Record<string, unknown> {
  const elicitation = inner.client.capabilities?.elicitation as { url?: object } | undefined;
  if (elicitation?.url) return params;
  throw new ToolError(
    `${inner.toolName} asked the user to open ${String(params.url)} (URL-mode elicitation), which the client that sent the program does not support; it was refused.`,
  );
}

/**
 * A call an upstream refused with `URLElicitationRequiredError` (-32042, 2025 revisions): its
 * URLs go to the client that sent the program as URL-mode elicitations, then the program gets a
 * `ToolError` saying what the user answered and to call again once the user is done (whether
 * they are, only the upstream knows). A client that cannot open URLs is not asked.
 */
export async function urlRequired(input: {
  inner: ToolContext | undefined;
  tool: string;
  error: unknown;
  /** Where the server's completion notifications of the URLs shown go. */
  sentTo: SentUrls;
}): Promise<never> {
  const { inner, tool } = input;
  const data = (input.error as { data?: { elicitations?: unknown } }).data;
  const elicitations = (Array.isArray(data?.elicitations) ? data.elicitations : []) as UrlElicitation[];
  const urls = elicitations.map((e) => `${e.message} (${e.url})`).join("; ") || "(no URL given)";
  const first = `${tool} needs the user to open a URL first: ${urls}.`;
  if (!inner) throw new ToolError(`${first} The program that called it has no client to ask.`);
  const elicitation = inner.client.capabilities?.elicitation as { url?: object } | undefined;
  if (!elicitation?.url || elicitations.length === 0)
    throw new ToolError(
      `${first} The client that sent the program does not support URL-mode elicitation, so it was not shown.`,
    );
  for (const e of elicitations)
    if (typeof e.elicitationId === "string") input.sentTo.add(e.elicitationId, inner);
  const answers = await Promise.all(
    elicitations.map((e) =>
      inner.elicit({
        mode: "url",
        message: e.message,
        url: e.url,
        ...(typeof e.elicitationId === "string" ? { elicitationId: e.elicitationId } : {}),
      }),
    ),
  );
  const refused = answers.find((a) => a.action !== "accept");
  throw new ToolError(
    refused
      ? `${first} The user chose ${refused.action}.`
      : `${first} The user agreed to open it; call ${tool} again once they are done.`,
  );
}

const KEPT = 100;

/**
 * The contexts of the runs a 2025 server's URL elicitations were sent to, by `elicitationId`, so
 * its `notifications/elicitation/complete` reaches the same client (the user may finish after the
 * call ended). The oldest are forgotten past 100 (a server need not ever send the notification).
 */
export class SentUrls {
  readonly #byId = new Map<string, ToolContext>();

  add(elicitationId: string, inner: ToolContext): void {
    this.#byId.delete(elicitationId);
    this.#byId.set(elicitationId, inner);
    if (this.#byId.size > KEPT) this.#byId.delete(this.#byId.keys().next().value!);
  }

  /** The context the elicitation was sent to, forgotten from now on. */
  take(elicitationId: string): ToolContext | undefined {
    const inner = this.#byId.get(elicitationId);
    this.#byId.delete(elicitationId);
    return inner;
  }
}
