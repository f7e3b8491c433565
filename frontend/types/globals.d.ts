/* What the front end's modules read from outside themselves: the runtime (rulesc/runtime/rulesc_runtime.js),
   the compiled systems (formulas/<system>.js), Material's document$ and Pagefind. Only the parts used here. */

/** An exact fraction, a float from sd(), or a whole number: what R.fixed() rounds. */
type RulesNumber = number | RulesQ | RulesReal;
interface RulesQ { readonly n: bigint; readonly d: bigint }
interface RulesReal { readonly v: number }
/** The exact distribution of a roll: outcome offset + i has weight weights[i] out of total. */
interface RulesDist { offset: number; weights: bigint[]; total: bigint }
/** A roll's named outcomes (or yes and no), each with its weight. */
interface RulesOutcomes { labels: (string | boolean)[]; weights: bigint[]; total: bigint }
interface RulesDice { counts: unknown[]; c: number }
/** What the runtime's sampler draws random bits from: k bits as a whole number below 2**k. */
interface RulesRng { getrandbits(k: number): bigint }

interface RulesRuntime {
  Q: new (...args: never[]) => RulesQ;
  Real: new (...args: never[]) => RulesReal;
  Dist: new (...args: never[]) => RulesDist;
  Outcomes: new (...args: never[]) => RulesOutcomes;
  Dice: new (...args: never[]) => RulesDice;
  fixed(value: RulesNumber, places: number): string;
  nmul(value: RulesNumber, by: number): RulesNumber;
  ratio(weight: bigint, total: bigint): RulesNumber;
  p(value: RulesOutcomes): RulesNumber;
  mean(value: RulesDist): RulesNumber;
  sd(value: RulesDist): RulesNumber;
  toFloat(value: RulesNumber): number;
  /** one roll of a value, or of a roll table (its steps); random bits from crypto where no generator is given */
  roll(value: unknown, rng?: RulesRng): unknown;
  parseDice(text: string): RulesDice;
  rollable(pool: RulesDice): RulesDice;
}

/** One input of a compiled calculator, as scripts.py writes it. */
interface CalculatorInput {
  name: string; type: string; label: string; min?: number; max?: number; options?: number[];
  default: unknown;
}
/** One output: how the page shows it, and run(), which works it out from the inputs and earlier outputs. */
interface CalculatorOutput {
  name: string; label: string; type: string; labels: string[] | null; format: string | null; formula: string;
  texts?: Record<string, string>;  // what happens on each named outcome, when the output rolls its rule's outcomes
  run(env: Record<string, unknown>): unknown;
}
interface Calculator { title: string; inputs: CalculatorInput[]; outputs: CalculatorOutput[] }
/** Where a roll table is: its page under the site's root, its title, and each row's anchor. */
interface RollPlace { page: string; title: string; rows: string[] }
interface RulesSystem {
  calculators: Record<string, Calculator>;
  /** the system's roll tables, by name, as R.rollTables() builds them, and where each is */
  rollTables?: Record<string, unknown>; rollPlaces?: Record<string, RollPlace>;
}
type RollSystem = Required<RulesSystem>;
/** One step of a roll on a table: [table, row, key, text, depth, kept, value], as R.roll() lists them. */
type RollStep = [string, number, string, string, number, boolean, number];

type FormControl = HTMLInputElement | HTMLSelectElement | HTMLFieldSetElement;

/** window.Rulesc: what one of rulesc's scripts tells the others. */
interface RulescNamespace {
  /** site.js has started on this page */
  site?: boolean;
  /** calculators.js is loaded: init() binds the page's calculators */
  calculators?: { init(): void };
}

/** A search hit's data as search.py writes its records (href and crumbs base64-coded). */
interface HitData {
  meta: { title: string; href: string; crumbs: string; text: string; names?: string; what?: string };
  filters: { kind?: string[] };
}
interface PagefindHit { id: string; score?: number; data(): Promise<HitData> }
interface Pagefind {
  options(options: { baseUrl: string }): Promise<void>;
  filters(): Promise<Record<string, Record<string, number>>>;
  search(query: string | null, options: { filters: Record<string, unknown> }): Promise<{ results: PagefindHit[] }>;
}

declare var Rulesc: RulescNamespace | undefined;
declare var RulesRuntime: RulesRuntime | undefined;
declare var RulesSystems: Record<string, RulesSystem> | undefined;
/** Material's instant navigation: each new page is announced on it. */
declare var document$: { subscribe(next: () => void): unknown } | undefined;
