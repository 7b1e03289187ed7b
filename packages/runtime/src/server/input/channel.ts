import {
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  type Root,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../../context.ts";
import { ToolError } from "../../tool-error.ts";
import { elicitationProblem } from "../protocol.ts";

/** A request a tool sends its client: elicitation, sampling or the client's roots. */
export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params: Record<string, unknown>;
}

/** A progress update of a running call (`ctx.progress()`). */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * How a running call reaches its client: one implementation per era and mode — a 2025 request
 * (server-to-client requests on the call's stream, `request-channel.ts`), a 2026-07-28
 * `input_required` round (`round-channel.ts`; `parked.ts` answers the rounds), a 2026-07-28 task
 * (`tasks/update`) and a 2025 task (on a waiting `tasks/result`; both `task-channels.ts`). The
 * tool context asks through the channel of its invocation, which changes when a call becomes a task.
 */
export interface InputChannel {
  /** Asks the client under `key` (2026-07-28; default: numbered per call); resolves with its answer. */
  ask(request: InputRequest, key?: string): Promise<unknown>;
  /** Reports progress where this mode reports it (a notification, the task's status message). */
  progress(update: ProgressUpdate): Promise<void>;
  /** `ctx.becomeTask()`: resolves once the call runs as a task, or at once where it cannot become one. */
  becomeTask(): Promise<void>;
}

/**
 * The parts of a `ToolContext` that reach the client — progress and the questions — through the
 * channel `current()` returns at each use (a call's channel changes when it becomes a task).
 */
export function askThrough(
  current: () => InputChannel,
): Pick<ToolContext, "progress" | "sample" | "elicit" | "roots"> {
  return {
    progress: (progress, total, message) =>
      current().progress({
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      }),
    sample: (request, options) =>
      current().ask({ method: "sampling/createMessage", params: { ...request } }, options?.key) as never,
    elicit: (request, options) =>
      current().ask(
        {
          method: "elicitation/create",
          params: { ...request, mode: isUrl(request as { mode?: unknown }) ? "url" : "form" },
        },
        options?.key,
      ) as never,
    async roots(options) {
      const answer = await current().ask({ method: "roots/list", params: {} }, options?.key);
      return (answer as { roots: Root[] }).roots;
    },
  };
}

/** `notifications/progress` for a progress token. */
export function progressNotification(progressToken: string | number, update: ProgressUpdate) {
  const { progress, total, message } = update;
  return {
    method: "notifications/progress" as const,
    params: {
      progressToken,
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message !== undefined ? { message } : {}),
    },
  };
}

/** Whether an elicitation asks the user to open a URL (URL mode) rather than fill a form. */
export function isUrl(params: { mode?: unknown }): boolean {
  return params.mode === "url";
}

/**
 * A request as a 2026-07-28 round or task asks it: URL-mode elicitation has no `elicitationId`
 * there (the 2025 revisions' correlation id; the server's own `requestState` correlates).
 */
export function modernRequest(request: InputRequest): InputRequest {
  if (!isUrl(request.params) || !("elicitationId" in request.params)) return request;
  const { elicitationId: _, ...params } = request.params;
  return { ...request, params };
}

/**
 * Whether a client with these capabilities can answer the request: URL-mode elicitation needs
 * `elicitation.url`; form mode `elicitation.form`, or an `elicitation` that names no mode (an
 * empty one means form, as the spec says; one with `url` only does not).
 */
export function supports(capabilities: ClientCapabilities | undefined, request: InputRequest): boolean {
  const capability = capabilities?.[CAPABILITY_OF[request.method]];
  if (request.method !== "elicitation/create" || !capability) return Boolean(capability);
  const modes = capability as { form?: object; url?: object };
  return isUrl(request.params) ? Boolean(modes.url) : Boolean(modes.form) || !modes.url;
}

/** The client capability each request needs. */
export const CAPABILITY_OF = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
} as const;

const KEY_PREFIX = {
  "elicitation/create": "elicit",
  "sampling/createMessage": "sample",
  "roots/list": "roots",
} as const;

/**
 * The refusal when the client lacks what a request needs: a 2026-07-28 request fails with
 * `-32021` (`strict`; the SDK answers HTTP 400), as the spec requires; elsewhere a `ToolError`
 * the tool may catch.
 */
export function missingCapability(options: { request: InputRequest; label: string; strict: boolean }): Error {
  const capability = CAPABILITY_OF[options.request.method];
  const url = capability === "elicitation" && isUrl(options.request.params);
  if (options.strict) {
    return new MissingRequiredClientCapabilityError({
      requiredCapabilities: { [capability]: url ? { url: {} } : {} },
    });
  }
  return new ToolError(
    `${options.label} needs ${url ? "URL-mode elicitation" : capability}, which the client does not support.`,
  );
}

interface Question {
  request: InputRequest;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

/**
 * The questions of one call that wait for answers under their keys (2026-07-28 rounds and
 * tasks): keys numbered per call, answers checked before the tool sees them.
 */
export class Questions {
  readonly #open = new Map<string, Question>();
  #asked = 0;
  /** Answers that came before their question (a client that knows the questions may send them at once). */
  #early: Record<string, unknown> = {};

  constructor(early?: Record<string, unknown>) {
    if (early) this.#early = { ...early };
  }

  /** Questions not yet answered. */
  get size(): number {
    return this.#open.size;
  }

  /** The open questions as `inputRequests` (by key). */
  inputRequests(): Record<string, InputRequest> {
    return Object.fromEntries([...this.#open].map(([key, q]) => [key, q.request]));
  }

  /** Whether an answer for `key` came before its question (it settles the question at once). */
  hasEarly(key: string): boolean {
    return Object.hasOwn(this.#early, key);
  }

  /** The next numbered key of a question of this kind (`elicit-1` …), for a caller that needs it first. */
  nextKey(request: InputRequest): string {
    return `${KEY_PREFIX[request.method]}-${++this.#asked}`;
  }

  /**
   * Asks under `chosen`, or the next number (`elicit-1` …); an early answer settles it at once.
   * `full` may refuse a question that would wait (too many calls wait already).
   */
  ask(request: InputRequest, chosen?: string, full?: () => Error | undefined): Promise<unknown> {
    const key = chosen ?? this.nextKey(request);
    if (chosen !== undefined && this.#open.has(key)) {
      return Promise.reject(
        new ToolError(`The tool asks twice under the key "${key}" at once; give each question its own key.`),
      );
    }
    if (Object.hasOwn(this.#early, key)) {
      const answer = this.#early[key];
      delete this.#early[key];
      const problem = answerProblem(request, answer);
      return problem ? Promise.reject(invalidAnswer(key, problem)) : Promise.resolve(answer);
    }
    const refused = full?.();
    if (refused) return Promise.reject(refused);
    return new Promise((resolve, reject) => this.#open.set(key, { request, resolve, reject }));
  }

  /** Hands the client's answers to the questions asked under their keys; other keys are ignored. */
  answer(answers: Readonly<Record<string, unknown>>): void {
    for (const [key, question] of [...this.#open]) {
      if (!Object.hasOwn(answers, key)) continue;
      this.#open.delete(key);
      const problem = answerProblem(question.request, answers[key]);
      if (problem) question.reject(invalidAnswer(key, problem));
      else question.resolve(answers[key]);
    }
  }

  /** Ends every open question (the call is over). */
  rejectAll(error: Error): void {
    for (const question of this.#open.values()) question.reject(error);
    this.#open.clear();
  }
}

function invalidAnswer(key: string, problem: string): ToolError {
  return new ToolError(`The client's answer to "${key}" is invalid: ${problem}`);
}

/** Why a client's answer cannot be handed to the tool, if it cannot. */
export function answerProblem(request: InputRequest, answer: unknown): string | undefined {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return "expected an object";
  const value = answer as Record<string, unknown>;
  if (request.method === "roots/list") {
    return Array.isArray(value.roots) &&
      value.roots.every((r) => typeof (r as { uri?: unknown })?.uri === "string")
      ? undefined
      : "expected a list of roots (roots: [{ uri }])";
  }
  if (request.method === "sampling/createMessage") {
    return typeof value.role === "string" && value.content !== undefined
      ? undefined
      : "expected a sampling result (role, content)";
  }
  if (value.action !== "accept" && value.action !== "decline" && value.action !== "cancel") {
    return 'expected action "accept", "decline" or "cancel"';
  }
  if (value.action !== "accept" || isUrl(request.params)) return undefined;
  return elicitationProblem(request.params.requestedSchema as never, value.content ?? {});
}
