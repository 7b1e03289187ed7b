import { randomUUID } from "node:crypto";
import { createRequestStateCodec, type ServerContext } from "@modelcontextprotocol/server";
import type { ContinuationStore } from "./types.ts";

/** Options of `continuationCodec`. */
export interface ContinuationCodecOptions {
  /**
   * The shared keys, newest first (each at least 32 bytes): `mint` seals with the first, `verify`
   * accepts any — rotate by putting the new key first and dropping the old one after `ttlSeconds`.
   * Every replica needs the same list (e.g. `MCP_GEN_STATE_KEYS=new,old`).
   */
  keys: readonly (string | Uint8Array)[];
  /** Where single use is enforced: every replica's `SharedState.continuations`. */
  continuations: ContinuationStore;
  /** How long a continuation may be used, in seconds. Default 600. */
  ttlSeconds?: number;
  /** Binds a continuation to its caller (principal, method), as the SDK's codec does. */
  bind?: (ctx: ServerContext) => string;
}

/** Seals and opens 2026-07-28 `requestState` values that any replica accepts once. */
export interface ContinuationCodec<T> {
  /** The sealed wire value for `inputRequired({ requestState })`: signed, readable by the client. */
  mint(payload: T, ctx?: ServerContext): Promise<string>;
  /**
   * The payload of an echoed `requestState`, once: a second use on any replica, a bad MAC (no key
   * matches), an expired, rebound or malformed value throws.
   */
  verify(state: string, ctx: ServerContext): Promise<T>;
}

interface Sealed<T> {
  /** The continuation's id, claimed in the store on first use. */
  id: string;
  /** Its expiry, in milliseconds since the epoch. */
  until: number;
  payload: T;
}

/**
 * The request state of `input_required` retries shared by replicas: the SDK's
 * `createRequestStateCodec` (HMAC-SHA256, expiry, binding) with key rotation, and single use
 * claimed in the shared store. See docs/design/shared-state.md.
 *
 * @example
 * const codec = continuationCodec({ keys: process.env.MCP_GEN_STATE_KEYS!.split(","), continuations: state.continuations });
 * const requestState = await codec.mint({ answers }, ctx);
 */
export function continuationCodec<T>(options: ContinuationCodecOptions): ContinuationCodec<T> {
  if (options.keys.length === 0) throw new RangeError("continuationCodec: give at least one key");
  const ttlSeconds = options.ttlSeconds ?? 600;
  const codecs = options.keys.map((key) =>
    createRequestStateCodec<Sealed<T>>({
      key,
      ttlSeconds,
      ...(options.bind ? { bind: options.bind } : {}),
    }),
  );
  return {
    mint: (payload, ctx) =>
      codecs[0]!.mint({ id: randomUUID(), until: Date.now() + ttlSeconds * 1000, payload }, ctx),
    async verify(state, ctx) {
      let opened: Sealed<T> | undefined;
      for (const codec of codecs) {
        try {
          opened = await codec.verify(state, ctx);
          break;
        } catch (error) {
          // Another key may have sealed it; any other failure is final.
          if (!(error instanceof Error && error.message === "mac")) throw error;
        }
      }
      if (!opened) throw new Error("mac");
      if (!(await options.continuations.claim(opened.id, opened.until))) throw new Error("used");
      return opened.payload;
    },
  };
}
