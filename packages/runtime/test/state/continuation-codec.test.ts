import { randomUUID } from "node:crypto";
import type { ServerContext } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continuationCodec, openState, type SharedState } from "../../src/state/index.ts";
import { ENGINES_SKIP, REDIS_URL } from "./engines.ts";

/**
 * Continuations two replicas share: sealed by one, opened once by any (the store enforces it),
 * with keys rotated. Two Redis connections stand for the replicas.
 */
const OLD = "an old shared key of at least 32 bytes....";
const NEW = "the new shared key, also 32 bytes or more..";
const ctx = (principal: string) =>
  ({ mcpReq: { method: "tools/call" }, principal }) as unknown as ServerContext;
const bind = (c: ServerContext) => `${c.mcpReq.method}\0${(c as unknown as { principal: string }).principal}`;

describe.skipIf(ENGINES_SKIP || !REDIS_URL)("continuation codec on Redis", () => {
  let a!: SharedState;
  let b!: SharedState;
  beforeAll(async () => {
    const namespace = `t_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    a = await openState(REDIS_URL!, { namespace });
    b = await openState(REDIS_URL!, { namespace });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("opens a continuation sealed on one replica on another, once", async () => {
    const onA = continuationCodec<{ answers: object }>({ keys: [OLD], continuations: a.continuations, bind });
    const onB = continuationCodec<{ answers: object }>({ keys: [OLD], continuations: b.continuations, bind });
    const state = await onA.mint({ answers: { "elicit-1": { action: "accept" } } }, ctx("alice"));
    await expect(onB.verify(state, ctx("bob"))).rejects.toThrow("bind");
    expect(await onB.verify(state, ctx("alice"))).toStrictEqual({
      answers: { "elicit-1": { action: "accept" } },
    });
    await expect(onA.verify(state, ctx("alice"))).rejects.toThrow("used");
    await expect(onB.verify(state, ctx("alice"))).rejects.toThrow("used");
  });

  it("accepts what the previous key sealed while it is still listed, and nothing tampered", async () => {
    const before = continuationCodec<string>({ keys: [OLD], continuations: a.continuations });
    const rotated = continuationCodec<string>({ keys: [NEW, OLD], continuations: b.continuations });
    const retired = continuationCodec<string>({ keys: [NEW], continuations: b.continuations });
    const sealedOld = await before.mint("round 1");
    const sealedNew = await rotated.mint("round 2");
    expect(await rotated.verify(sealedOld, ctx("x"))).toBe("round 1");
    await expect(before.verify(sealedNew, ctx("x"))).rejects.toThrow("mac");
    await expect(retired.verify(await before.mint("round 3"), ctx("x"))).rejects.toThrow("mac");
    const [head, body, mac] = sealedNew.split(".") as [string, string, string];
    const tampered = `${head}.${body.slice(0, -2)}AA.${mac}`;
    await expect(rotated.verify(tampered, ctx("x"))).rejects.toThrow(/mac|malformed/);
    expect(await retired.verify(sealedNew, ctx("x"))).toBe("round 2");
    expect(() => continuationCodec({ keys: ["short"], continuations: a.continuations })).toThrow(RangeError);
  });
});
