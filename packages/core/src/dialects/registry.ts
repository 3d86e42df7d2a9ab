/**
 * The built-in dialects: the one list every other list of them is read from. The validator generator writes a
 * schema's validators per entry, the generated module gathers them by name, `BUILT_IN_DIALECTS` orders the dialects
 * by it, the CLI offers its names as `--dialect`, and the golden tests read each entry's recordings. Data only, so
 * that reading the names (for `--help`) loads no dialect.
 *
 * A new built-in dialect is one entry here, its `schemas/<schemaStem>.schema.json`, its dialect in `built-in.ts`
 * (which does not compile without it), and its recordings in `corpus/<corpusFolder>/`.
 */

/** One built-in dialect, as the build, the command line and the tests know it. */
export interface BuiltInDialectEntry {
  /** The dialect's `name`: the value of `--dialect` that picks it. */
  readonly name: string;
  /** `schemas/<schemaStem>.schema.json`, and the generated `<schemaStem>.js` and `<schemaStem>-strict.js`. */
  readonly schemaStem: string;
  /** `corpus/<corpusFolder>/`: recordings of the dialect, each beside the events it normalizes to. */
  readonly corpusFolder: string;
}

/** Every built-in dialect, in the order auto-detection tries them. */
export const BUILT_IN_DIALECT_REGISTRY = [
  // First: its messages share `type`s with the CLI's records (`tool_call`), and only their ids tell them apart.
  { name: 'cursor-sdk', schemaStem: 'cursor-sdk', corpusFolder: 'cursor-sdk' },
  { name: 'official', schemaStem: 'official', corpusFolder: 'official' },
  { name: 'python-wrapper', schemaStem: 'python-wrapper', corpusFolder: 'python-wrapper' },
  { name: 'payload-envelope', schemaStem: 'payload-envelope', corpusFolder: 'payload-envelope' },
  { name: 'acp', schemaStem: 'acp', corpusFolder: 'acp' },
] as const satisfies readonly BuiltInDialectEntry[];

type NamesOf<Entries extends readonly BuiltInDialectEntry[]> = {
  readonly [Index in keyof Entries]: Entries[Index] extends { readonly name: infer Name } ? Name : never;
};

/** The names of the built-in dialects, in the order auto-detection tries them. */
export const BUILT_IN_DIALECT_NAMES = Object.freeze(
  BUILT_IN_DIALECT_REGISTRY.map((entry) => entry.name),
) as NamesOf<typeof BUILT_IN_DIALECT_REGISTRY>;

/** The name of a built-in dialect: the value of `--dialect` besides `auto`. */
export type BuiltInDialectName = (typeof BUILT_IN_DIALECT_NAMES)[number];
