import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  RELATED_TASK_META_KEY,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { publishStatus, type SharedTasks } from "../shared-tasks.ts";
import type { TaskRecord, TaskStore } from "../task-store.ts";
import {
  type InputChannel,
  missingCapability,
  modernRequest,
  progressNotification,
  type Questions,
  supports,
} from "./channel.ts";
import { send } from "./request-channel.ts";
import type { ResultChannel } from "./result-channel.ts";

/** What both task channels share: the task, where it is kept, and how messages name the tool. */
interface TaskLink {
  taskId: string;
  store: TaskStore;
  /** Set when replicas share the task: its questions are kept in the store, answered on any replica. */
  shared?: SharedTasks | undefined;
  label: string;
}

/**
 * The channel of a 2026-07-28 task: questions wait under their keys while the task's status is
 * `input_required` (`tasks/get` shows them), and `tasks/update` answers them (`questions`). What
 * the client supports is what the request that created the task declared. Progress messages
 * become the task's status message.
 */
export function modernTaskChannel(
  link: TaskLink & {
    questions: Questions;
    /** The request that created the task; absent for a run taken over (its client's capabilities are unknown). */
    created: ServerContext | undefined;
    signal: AbortSignal;
  },
): InputChannel {
  const envelope = link.created?.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return {
    ask(asked, key) {
      const request = modernRequest(asked);
      if (link.created && !supports(capabilities, request)) {
        return Promise.reject(missingCapability({ request, label: link.label, strict: false }));
      }
      const { shared } = link;
      if (!shared) {
        const answer = link.questions.ask(request, key);
        void link.store.setStatus(link.taskId, "input_required");
        return answer;
      }
      // The question waits here under its key; the record shows it to every replica's `tasks/get`.
      const chosen = key ?? link.questions.nextKey(request);
      // Answered already (a run taken over, asking again what its client answered before).
      if (link.questions.hasEarly(chosen)) return link.questions.ask(request, chosen);
      const answer = link.questions.ask(request, chosen);
      void shared.tasks
        .ask(link.taskId, { [chosen]: request })
        .then((task) => publishStatus(shared, task))
        .catch((error) => shared.report(error));
      return answer;
    },
    async progress({ message }) {
      if (!link.signal.aborted && message !== undefined) {
        await link.store.setStatus(link.taskId, "working", message);
      }
    },
    becomeTask: () => Promise.resolve(),
  };
}

/**
 * The channel of a 2025-11-25 task: its requests to the client go on the stream of a waiting
 * `tasks/result` (status `input_required` meanwhile), marked as the task's (`related-task`);
 * progress goes on the progress token of the creating request, valid for the task's life.
 */
export function legacyTaskChannel(
  link: TaskLink & {
    server: Server;
    results: ResultChannel;
    /** Tells the creating connection the task's new status (`notifications/tasks/status`). */
    notify(task: TaskRecord | undefined): void;
    progressToken: string | number | undefined;
    signal: AbortSignal;
  },
): InputChannel {
  const { server, store, taskId, signal } = link;
  const related = { [RELATED_TASK_META_KEY]: { taskId } };
  return {
    async ask(request) {
      if (!supports(server.getClientCapabilities(), request)) {
        throw missingCapability({ request, label: link.label, strict: false });
      }
      link.notify(await store.setStatus(taskId, "input_required"));
      const waiting = await link.results.next(signal);
      try {
        const params = { ...request.params, _meta: related };
        return await send(
          server,
          waiting,
          { ...request, params },
          { relatedRequestId: waiting.mcpReq.id, signal },
        );
      } finally {
        if (!signal.aborted) link.notify(await store.setStatus(taskId, "working"));
      }
    },
    async progress(update) {
      if (signal.aborted) return;
      if (update.message !== undefined) await store.setStatus(taskId, "working", update.message);
      if (link.progressToken === undefined) return;
      await server.notification(progressNotification(link.progressToken, update)).catch(() => {});
    },
    becomeTask: () => Promise.resolve(),
  };
}
