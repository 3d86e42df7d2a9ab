/**
 * What redaction removes, by kind. Each kind's placeholder names it (`[redacted:github-token]`), so a reader knows
 * what stood there, and a count per kind says how much was removed.
 */

/** The kinds of text redaction replaces. */
export type RedactionKind =
  | 'private-key'
  | 'environment'
  | 'cursor-api-key'
  | 'anthropic-api-key'
  | 'openai-api-key'
  | 'github-token'
  | 'aws-access-key-id'
  | 'slack-token'
  | 'slack-webhook'
  | 'google-api-key'
  | 'jwt'
  | 'bearer-token'
  | 'secret-variable'
  | 'email'
  | 'home-directory';

/** Every kind, in the order redaction looks for them. */
export const REDACTION_KINDS: readonly RedactionKind[] = [
  'private-key',
  'environment',
  'cursor-api-key',
  'anthropic-api-key',
  'openai-api-key',
  'github-token',
  'aws-access-key-id',
  'slack-token',
  'slack-webhook',
  'google-api-key',
  'jwt',
  'bearer-token',
  'secret-variable',
  'email',
  'home-directory',
];

/** How many of each kind were replaced; a kind never found is absent. */
export type RedactionCounts = Partial<Record<RedactionKind, number>>;

/** The text that stands where a secret of `kind` was. */
export function placeholderOf(kind: RedactionKind): string {
  return `[redacted:${kind}]`;
}

/** Whether `text` is already a placeholder (or starts with one), so a second pass leaves it as it is. */
export function isPlaceholder(text: string): boolean {
  return text.startsWith('[redacted:');
}
