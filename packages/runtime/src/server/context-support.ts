/**
 * What serving a tool, resource or prompt that takes a context needs beyond a plain call: the
 * context itself and the 2025 request channel its questions go through. `features.ts` loads this
 * module only for a manifest with such a target.
 */
export { legacyRequestChannel } from "./input/request-channel.ts";
export { createToolContext } from "./tool-context.ts";
