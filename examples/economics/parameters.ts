/** One configurable parameter of the economic simulation. */
export interface SimulationParameter {
  name: string;
  category: string;
  description: string;
  type: "int" | "float" | "bool" | "str";
  default: number | boolean | string;
  /** [min, max] for numeric parameters. */
  range?: [number, number];
}

/** The parameter catalogue of the AI-economist simulation the seed's server exposes. */
export const PARAMETERS: readonly SimulationParameter[] = [
  {
    name: "num_agents",
    category: "population",
    description: "Number of household agents",
    type: "int",
    default: 100,
    range: [1, 10000],
  },
  {
    name: "num_firms",
    category: "population",
    description: "Number of firms",
    type: "int",
    default: 10,
    range: [1, 1000],
  },
  {
    name: "episode_length",
    category: "simulation",
    description: "Simulated months per episode",
    type: "int",
    default: 240,
    range: [12, 1200],
  },
  {
    name: "random_seed",
    category: "simulation",
    description: "Seed of the random generator",
    type: "int",
    default: 42,
  },
  {
    name: "income_tax_rate",
    category: "tax",
    description: "Flat income tax rate",
    type: "float",
    default: 0.2,
    range: [0, 1],
  },
  {
    name: "progressive_tax",
    category: "tax",
    description: "Use progressive tax brackets",
    type: "bool",
    default: false,
  },
  {
    name: "ubi_amount",
    category: "tax",
    description: "Universal basic income per month",
    type: "float",
    default: 0,
    range: [0, 10000],
  },
  {
    name: "ai_adoption_rate",
    category: "labor",
    description: "Share of firms adopting AI agents per year",
    type: "float",
    default: 0.1,
    range: [0, 1],
  },
  {
    name: "automation_elasticity",
    category: "labor",
    description: "How strongly AI substitutes labour",
    type: "float",
    default: 0.5,
    range: [0, 2],
  },
  {
    name: "retraining_cost",
    category: "labor",
    description: "Cost to retrain one worker",
    type: "float",
    default: 5000,
    range: [0, 100000],
  },
  {
    name: "interest_rate",
    category: "market",
    description: "Central bank interest rate",
    type: "float",
    default: 0.03,
    range: [0, 0.25],
  },
  {
    name: "price_adjustment",
    category: "market",
    description: "Speed of price adjustment",
    type: "float",
    default: 0.1,
    range: [0, 1],
  },
];

export const CATEGORIES = [...new Set(PARAMETERS.map((p) => p.category))].sort();

/** Experiment types `analyze_question` recognises, with the keywords that point to them. */
export const EXPERIMENTS: readonly { type: string; keywords: string[]; parameters: string[] }[] = [
  {
    type: "labor_productivity",
    keywords: ["labor", "labour", "job", "employment", "worker", "劳动", "就业", "工作"],
    parameters: ["ai_adoption_rate", "automation_elasticity", "retraining_cost"],
  },
  {
    type: "tax_policy",
    keywords: ["tax", "ubi", "income", "税", "收入"],
    parameters: ["income_tax_rate", "progressive_tax", "ubi_amount"],
  },
  {
    type: "monetary_policy",
    keywords: ["interest", "inflation", "price", "利率", "通胀", "价格"],
    parameters: ["interest_rate", "price_adjustment"],
  },
];
