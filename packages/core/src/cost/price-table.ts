/**
 * The format of a price table, and reading one a person gives (`--prices FILE`) into it with every problem located.
 * The built-in table is in this format, so a table of one's own starts as a copy of it.
 */

/** Rates in USD per million tokens. `null` is a rate not known: a count priced at it has an unknown cost. */
export interface TokenRates {
  input: number;
  output: number;
  cacheRead: number | null;
  /** Writing the prompt cache, as the provider prices it (often the input price, 1.25x it for Anthropic). */
  cacheWrite: number | null;
}

/** One model's prices, with where they were read and when. */
export interface ModelPrice extends TokenRates {
  /**
   * The rates above a prompt size. Kept for reference, not applied: a log's usage sums a turn's requests, and
   * how large each request's prompt was is not in it.
   */
  longContext?: Partial<TokenRates> & { thresholdTokens: number };
  /** Where the prices were read: a URL, and how they got there when not from the provider itself. */
  source: string;
  /** When the prices were read or took effect. */
  asOf: string;
  note?: string;
}

/** How much more a model's fast variant costs, on every rate, when the table has no `<key>-fast` row. */
export interface FastMultipliers {
  /** By price key. */
  exact: Record<string, number>;
  /** By the start of a price key. */
  prefix: Record<string, number>;
  source?: string;
  note?: string;
}

/** A price table: rates per price key (`claude-sonnet-4-5`, `composer-2.5`), and names mapped to keys. */
export interface PriceTable {
  unit: 'usd-per-million-tokens';
  models: Record<string, ModelPrice>;
  /**
   * Model names (as a log's `stream-start` gives them, compared without case) mapped to a price key, before the
   * built-in rules that read Cursor's display names and slugs.
   */
  aliases?: Record<string, string>;
  fastMultipliers?: FastMultipliers;
}

/** Why a price table was not read. */
export interface PriceTableError {
  /** `invalid-json`: the text is not JSON; `invalid-price-table`: it is JSON, not a price table. */
  code: 'invalid-json' | 'invalid-price-table';
  /** One sentence per problem, each naming where it is: `models["gpt-5"].input is not a rate`. */
  problems: string[];
  message: string;
}

/** What {@link parsePriceTable} gave. */
export type PriceTableResult = { ok: true; value: PriceTable } | { ok: false; error: PriceTableError };

/** The most problems one table reports; a table with more is wrong throughout, and more would only be noise. */
const MAX_PROBLEMS = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A JSON-like path segment for a key, quoted so that any key reads unambiguously. */
function at(key: string): string {
  return `[${JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}...` : key)}]`;
}

function checkRates(
  value: Record<string, unknown>,
  where: string,
  nullable: readonly string[],
  required: boolean,
  problems: string[],
): void {
  for (const field of ['input', 'output', 'cacheRead', 'cacheWrite']) {
    const rate = value[field];
    if (rate === undefined && !required) continue;
    if (rate === null && nullable.includes(field)) continue;
    if (!isRate(rate)) problems.push(`${where}.${field} is not a rate (a number of dollars, 0 or more)`);
  }
}

function checkModel(key: string, value: unknown, problems: string[]): void {
  const where = `models${at(key)}`;
  if (!isRecord(value)) {
    problems.push(`${where} is not an object`);
    return;
  }
  checkRates(value, where, ['cacheRead', 'cacheWrite'], true, problems);
  for (const field of ['source', 'asOf'] as const) {
    if (typeof value[field] !== 'string' || value[field] === '')
      problems.push(`${where}.${field} is not a text (every price says where and when it was read)`);
  }
  if (value.note !== undefined && typeof value.note !== 'string')
    problems.push(`${where}.note is not a text`);
  const long = value.longContext;
  if (long !== undefined) {
    if (!isRecord(long)) problems.push(`${where}.longContext is not an object`);
    else {
      if (!isRate(long.thresholdTokens)) problems.push(`${where}.longContext.thresholdTokens is not a count`);
      checkRates(long, `${where}.longContext`, ['cacheRead', 'cacheWrite'], false, problems);
    }
  }
}

function checkMultipliers(value: unknown, problems: string[]): void {
  if (!isRecord(value)) {
    problems.push('fastMultipliers is not an object');
    return;
  }
  for (const group of ['exact', 'prefix'] as const) {
    const entries = value[group];
    if (!isRecord(entries)) {
      problems.push(`fastMultipliers.${group} is not an object`);
      continue;
    }
    for (const [key, factor] of Object.entries(entries)) {
      if (!isRate(factor)) problems.push(`fastMultipliers.${group}${at(key)} is not a number, 0 or more`);
    }
  }
}

/**
 * A price table from a value (JSON already parsed), or every problem that keeps it from being one. The value is
 * copied, so a table read stays as it was read.
 */
export function parsePriceTable(value: unknown): PriceTableResult {
  const problems: string[] = [];
  if (!isRecord(value)) problems.push('the table is not a JSON object');
  else {
    if (value.unit !== 'usd-per-million-tokens')
      problems.push('unit is not "usd-per-million-tokens", the only unit read');
    if (!isRecord(value.models)) problems.push('models is not an object of prices by key');
    else for (const [key, model] of Object.entries(value.models)) checkModel(key, model, problems);
    if (value.aliases !== undefined) {
      if (!isRecord(value.aliases)) problems.push('aliases is not an object of price keys by model name');
      else
        for (const [name, key] of Object.entries(value.aliases)) {
          if (typeof key !== 'string') problems.push(`aliases${at(name)} is not a price key`);
        }
    }
    if (value.fastMultipliers !== undefined) checkMultipliers(value.fastMultipliers, problems);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`and ${problems.length - MAX_PROBLEMS} more problems`);
    return {
      ok: false,
      error: { code: 'invalid-price-table', problems: shown, message: `not a price table: ${shown[0]}` },
    };
  }
  return { ok: true, value: structuredClone(value) as unknown as PriceTable };
}

/** A price table from JSON text (a file's contents), or why it is not one. Never throws. */
export function parsePriceTableText(text: string): PriceTableResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : 'unreadable';
    return { ok: false, error: { code: 'invalid-json', problems: [why], message: `not JSON: ${why}` } };
  }
  return parsePriceTable(value);
}
