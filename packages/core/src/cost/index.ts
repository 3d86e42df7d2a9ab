/**
 * `@cursor-stream/core/cost`: what a log's usage cost. A price table kept as data (rates per model, each with its
 * source and date), Cursor's model names brought to its keys, and a usage's cost from them: unknown (`null`), never 0,
 * for a model the table lacks. Another table can be read in the same format. Pure, for any view.
 */

export { BUILT_IN_PRICE_TABLE } from './built-in-prices.ts';
export { type ModelKey, modelKeyOf } from './model-key.ts';
export {
  type FastMultipliers,
  type ModelPrice,
  type PriceTable,
  type PriceTableError,
  type PriceTableResult,
  parsePriceTable,
  parsePriceTableText,
  type TokenRates,
} from './price-table.ts';
export { costAtRates, formatUsd, type ModelRates, modelRatesOf, usageCost } from './usage-cost.ts';
