/**
 * What a usage cost: its token counts priced at its model's rates. A cost is never guessed: a model the table lacks,
 * or a count whose rate is not known, makes it `null` (unknown), which a view shows as unknown rather than as 0.
 */

import type { Usage } from '../events/index.ts';
import { BUILT_IN_PRICE_TABLE } from './built-in-prices.ts';
import { modelKeyOf } from './model-key.ts';
import type { ModelPrice, PriceTable, TokenRates } from './price-table.ts';

/** The rates a model's usage is priced at, and the table row they come from. */
export interface ModelRates {
  /** The table's key for the model (`<key>-fast` when the table prices the fast variant itself). */
  key: string;
  /** Whether the model name named the fast variant. */
  fast: boolean;
  /** The rates applied: the row's, times the table's fast multiplier when the fast variant has no row. */
  rates: TokenRates;
  /** The row the rates come from, with its source and date. */
  price: ModelPrice;
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

function aliasOf(table: PriceTable, name: string): string | undefined {
  if (table.aliases === undefined) return undefined;
  const exact = own(table.aliases, name);
  if (exact !== undefined) return exact;
  const lower = name.toLowerCase();
  for (const [alias, key] of Object.entries(table.aliases)) if (alias.toLowerCase() === lower) return key;
  return undefined;
}

function fastMultiplier(table: PriceTable, key: string): number | undefined {
  const multipliers = table.fastMultipliers;
  if (multipliers === undefined) return undefined;
  const exact = own(multipliers.exact, key);
  if (exact !== undefined) return exact;
  let longest: [string, number] | undefined;
  for (const [prefix, factor] of Object.entries(multipliers.prefix)) {
    if (key.startsWith(prefix) && (longest === undefined || prefix.length > longest[0].length))
      longest = [prefix, factor];
  }
  return longest?.[1];
}

function times(rate: number | null, factor: number): number | null {
  return rate === null ? null : rate * factor;
}

/**
 * The rates `model` (a name as a log gives it, or a price key) is priced at in `table`; `null` when the table has no
 * row for it, or it names a fast variant the table neither prices nor has a multiplier for.
 */
export function modelRatesOf(model: string, table: PriceTable = BUILT_IN_PRICE_TABLE): ModelRates | null {
  const aliased = aliasOf(table, model);
  const read = aliased !== undefined ? { key: aliased, fast: false } : modelKeyOf(model);
  const named = read ?? { key: model, fast: false };
  if (named.fast) {
    const fastRow = own(table.models, `${named.key}-fast`);
    if (fastRow !== undefined)
      return { key: `${named.key}-fast`, fast: true, rates: ratesOf(fastRow), price: fastRow };
  }
  const price = own(table.models, named.key);
  if (price === undefined) return null;
  if (!named.fast || named.key.endsWith('-fast'))
    return { key: named.key, fast: named.fast, rates: ratesOf(price), price };
  const factor = fastMultiplier(table, named.key);
  if (factor === undefined) return null;
  const rates: TokenRates = {
    input: price.input * factor,
    output: price.output * factor,
    cacheRead: times(price.cacheRead, factor),
    cacheWrite: times(price.cacheWrite, factor),
  };
  return { key: named.key, fast: true, rates, price };
}

function ratesOf(price: ModelPrice): TokenRates {
  return {
    input: price.input,
    output: price.output,
    cacheRead: price.cacheRead,
    cacheWrite: price.cacheWrite,
  };
}

/**
 * What `usage` costs at `rates`, in USD; `null` when a count that is not 0 has no known rate. Counts that are not
 * whole numbers of tokens (see `checkUsage`) are the caller's to leave out; a missing count is 0.
 */
export function costAtRates(usage: Usage, rates: TokenRates): number | null {
  let perMillion = 0;
  for (const [count, rate] of [
    [usage.inputTokens, rates.input],
    [usage.outputTokens, rates.output],
    [usage.cacheReadTokens, rates.cacheRead],
    [usage.cacheWriteTokens, rates.cacheWrite],
  ] as const) {
    if (count === undefined || count === 0) continue;
    if (rate === null) return null;
    perMillion += count * rate;
  }
  return perMillion / 1_000_000;
}

/**
 * What `usage` of `model` costs, in USD, at `table`'s prices (the built-in table by default); `null`, never 0, when
 * the model or a rate its usage needs is not in the table.
 */
export function usageCost(
  usage: Usage,
  model: string | undefined,
  table: PriceTable = BUILT_IN_PRICE_TABLE,
): number | null {
  if (model === undefined) return null;
  const rates = modelRatesOf(model, table);
  return rates === null ? null : costAtRates(usage, rates.rates);
}

/**
 * A cost for a person: `$12.34`, with four decimals below a cent so that a short run does not read `$0.00`;
 * `unknown` for `null`, never `$0`.
 */
export function formatUsd(cost: number | null): string {
  if (cost === null) return 'unknown';
  return `$${cost > 0 && cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;
}
