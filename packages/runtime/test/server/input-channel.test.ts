import { describe, expect, it } from "vitest";
import {
  answerProblem,
  type InputRequest,
  modernRequest,
  Questions,
  supports,
} from "../../src/server/input/channel.ts";
import { memoryContinuations } from "../../src/server/parked.ts";

const elicit: InputRequest = {
  method: "elicitation/create",
  params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
};
const roots: InputRequest = { method: "roots/list", params: {} };

describe("Questions: what a 2026-07-28 call or task waits for", () => {
  it("numbers keys per call and method, and lists the open ones as inputRequests", () => {
    const questions = new Questions();
    void questions.ask(elicit);
    void questions.ask(roots);
    void questions.ask(elicit, "mine");
    expect(questions.inputRequests()).toStrictEqual({ "elicit-1": elicit, "roots-2": roots, mine: elicit });
  });

  it("hands each answer to its question, checked, and ignores unknown keys", async () => {
    const questions = new Questions();
    const name = questions.ask(elicit);
    const where = questions.ask(roots);
    questions.answer({
      "elicit-1": { action: "accept", content: { name: "Ada" } },
      "roots-2": { roots: "none" },
      other: {},
    });
    expect(await name).toStrictEqual({ action: "accept", content: { name: "Ada" } });
    await expect(where).rejects.toThrow(
      `The client's answer to "roots-2" is invalid: expected a list of roots (roots: [{ uri }])`,
    );
    expect(questions.size).toBe(0);
  });

  it("answers at once from early answers, refuses a key asked twice, and asks nothing when full", async () => {
    const questions = new Questions({ "elicit-1": { action: "decline" } });
    expect(await questions.ask(elicit)).toStrictEqual({ action: "decline" });
    void questions.ask(elicit, "k");
    await expect(questions.ask(elicit, "k")).rejects.toThrow(
      `The tool asks twice under the key "k" at once; give each question its own key.`,
    );
    await expect(questions.ask(roots, undefined, () => new Error("full"))).rejects.toThrow("full");
    expect(Object.keys(questions.inputRequests())).toStrictEqual(["k"]);
  });

  it("ends every open question when the call is over", async () => {
    const questions = new Questions();
    const open = questions.ask(elicit);
    questions.rejectAll(new Error("The task is over."));
    await expect(open).rejects.toThrow("The task is over.");
    expect(questions.size).toBe(0);
  });

  it("checks an elicitation answer against the requested schema", () => {
    expect(answerProblem(elicit, { action: "accept", content: { name: 3 } })).toBe(
      'property "name" must be of type string',
    );
    expect(answerProblem(elicit, { action: "maybe" })).toBe(
      'expected action "accept", "decline" or "cancel"',
    );
  });
});

describe("memoryContinuations", () => {
  it("keeps a parked call until it is taken", () => {
    const store = memoryContinuations();
    const call = { invocation: {} as never, target: "tool:a", args: "{}", timer: setTimeout(() => {}, 0) };
    store.put("id", call);
    expect(store.size).toBe(1);
    expect(store.take("id")).toBe(call);
    expect(store.take("id")).toBeUndefined();
    expect(store.size).toBe(0);
  });
});

describe("URL-mode elicitation", () => {
  const url: InputRequest = {
    method: "elicitation/create",
    params: { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e-1" },
  };

  it("needs elicitation.url; form mode elicitation.form or an elicitation naming no mode", () => {
    expect(supports({ elicitation: { form: {}, url: {} } }, url)).toBe(true);
    expect(supports({ elicitation: { form: {} } }, url)).toBe(false);
    expect(supports({ elicitation: {} }, url)).toBe(false);
    expect(supports({ elicitation: {} }, elicit)).toBe(true);
    expect(supports({}, elicit)).toBe(false);
    expect(supports({ elicitation: { url: {} } }, elicit)).toBe(false);
    expect(supports({ elicitation: { form: {} } }, elicit)).toBe(true);
    expect(supports({ roots: {} }, { method: "roots/list", params: {} })).toBe(true);
  });

  it("has no elicitationId on 2026-07-28, and its answer carries no content to check", () => {
    expect(modernRequest(url)).toStrictEqual({
      method: "elicitation/create",
      params: { mode: "url", message: "Sign in", url: "https://example.com/login" },
    });
    expect(modernRequest(elicit)).toBe(elicit);
    expect(answerProblem(url, { action: "accept" })).toBeUndefined();
    expect(answerProblem(url, { action: "maybe" })).toBe('expected action "accept", "decline" or "cancel"');
  });
});
