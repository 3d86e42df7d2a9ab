/** The names of the built-in dialects, in the order auto-detection tries them. */
export const BUILT_IN_DIALECT_NAMES = ['official', 'python-wrapper', 'payload-envelope'] as const;

/** The name of a built-in dialect: the value of `--dialect` besides `auto`. */
export type BuiltInDialectName = (typeof BUILT_IN_DIALECT_NAMES)[number];
