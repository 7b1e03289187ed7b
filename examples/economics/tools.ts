import { CATEGORIES, EXPERIMENTS, PARAMETERS, type SimulationParameter } from "./parameters.ts";

/**
 * 获取经济仿真系统的所有可配置参数 — get every configurable parameter of the economic simulation,
 * optionally of one category, as JSON or as a Markdown table.
 *
 * @param category Parameter category ("population", "simulation", "tax", "labor", "market") or "all"
 * @param format Output format
 * @returns The parameters, as JSON text or a Markdown table
 * @readOnly
 * @idempotent
 */
export async function get_all_parameters(
  category = "all",
  format: "json" | "markdown" = "json",
): Promise<string> {
  if (category !== "all" && !CATEGORIES.includes(category)) {
    throw new Error(`unknown category "${category}"; use "all" or one of: ${CATEGORIES.join(", ")}`);
  }
  const selected = PARAMETERS.filter((p) => category === "all" || p.category === category);
  if (format === "json") return JSON.stringify(groupByCategory(selected), null, 2);
  const rows = selected.map(
    (p) =>
      `| ${p.name} | ${p.category} | ${p.type} | ${String(p.default)} | ${p.range ? `${p.range[0]}–${p.range[1]}` : ""} | ${p.description} |`,
  );
  return [
    "| name | category | type | default | range | description |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

function groupByCategory(
  parameters: readonly SimulationParameter[],
): Record<string, Record<string, SimulationParameter>> {
  const groups: Record<string, Record<string, SimulationParameter>> = {};
  for (const p of parameters) {
    const group = groups[p.category] ?? {};
    group[p.name] = p;
    groups[p.category] = group;
  }
  return groups;
}

/** What `analyze_question` found in a question. */
export interface QuestionAnalysis {
  /** Experiment type, e.g. "labor_productivity"; "general" when nothing specific matched. */
  question_type: string;
  /** Keywords of the question that decided the type. */
  matched_keywords: string[];
  /** Parameters worth varying in the experiment. */
  suggested_parameters: string[];
}

/**
 * 分析问题并识别实验类型 — analyse a research question and identify the experiment type and the
 * simulation parameters worth varying.
 *
 * @param question The research question, e.g. "How will AI agents reshape the labor market?"
 * @readOnly
 * @idempotent
 */
export async function analyze_question(question: string): Promise<QuestionAnalysis> {
  const text = question.toLowerCase();
  let best: QuestionAnalysis = { question_type: "general", matched_keywords: [], suggested_parameters: [] };
  for (const experiment of EXPERIMENTS) {
    const matched = experiment.keywords.filter((k) => text.includes(k));
    if (matched.length > best.matched_keywords.length) {
      best = {
        question_type: experiment.type,
        matched_keywords: matched,
        suggested_parameters: experiment.parameters,
      };
    }
  }
  return best;
}

/** A category of simulation parameters. */
export type Category = "labor" | "market" | "population" | "simulation" | "tax";

/**
 * The simulation parameters of one category, by name: attach them to a conversation as context.
 *
 * @resource economics://parameters/{category}
 * @title Simulation parameters of a category
 * @param category Parameter category
 * @audience assistant
 */
export function parameters_of_category(category: Category): Record<string, SimulationParameter> {
  return groupByCategory(PARAMETERS.filter((p) => p.category === category))[category] ?? {};
}

/**
 * 分析这个问题 — analyse a research question: asks the model to identify the experiment type and
 * to pick the simulation parameters worth varying, with the parameter catalogue at hand.
 *
 * @prompt
 * @title Analyse a research question
 * @param question The research question, e.g. "How will AI agents reshape the labor market?"
 */
export function analyze_this_question(question: string): string {
  const catalogue = PARAMETERS.map((p) => `- ${p.name} (${p.category}): ${p.description}`).join("\n");
  return [
    `Research question: ${question}`,
    "",
    "Identify the experiment type this question calls for, then choose the simulation parameters",
    "worth varying (with ranges) from this catalogue. Call analyze_question first if in doubt.",
    "",
    catalogue,
  ].join("\n");
}
