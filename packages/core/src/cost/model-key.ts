/**
 * Cursor names a model three ways: a display name in a log's `stream-start` (`Claude 4.5 Sonnet`,
 * `GPT-5.6 Sol 1M High Fast`), a slug on the command line (`gpt-5.3-codex-xhigh-fast`), and a bracketed form
 * (`claude-opus-4-8[context=1m,effort=high]`). Context size, effort and thinking change neither the model nor its
 * rates, so each name is brought to the one price key of its model; whether it ran fast is kept apart, as a fast
 * variant is priced differently.
 */

/** The longest model name read; a longer one is no model Cursor names. */
const MAX_MODEL_NAME_LENGTH = 200;

/** A model name brought to a price key, with whether it names the fast variant. */
export interface ModelKey {
  /** The price key (`composer-2.5`, `claude-sonnet-4-5`, `gpt-5.3-codex`); it may be missing from a table. */
  key: string;
  /** Whether the name ends in `Fast` / `-fast`, or has `fast=true` among its bracketed parameters. */
  fast: boolean;
}

// Every pattern is anchored and has no nested or adjacent unbounded repetition over the same characters, so each
// runs in time linear in the name, whatever the name.
const EFFORT = '(?:none|minimal|low|medium|high|extra high|xhigh|extra-high|max|thinking)';
const TAGS = /\((?:no zdr|default|current)\)/gi;
const BRACKETS = /\[[^\]]*\]/g;
const FAST = /(?:\s|-)fast\s*$/i;
const CONTEXT = /\b\d+(?:\.\d+)?\s?[km]\b/gi;
const EXTRA_HIGH = /\bextra high\b/gi;
const EFFORT_WORDS = new RegExp(`(?:\\s|-)${EFFORT}\\b`, 'gi');

type Rule = [RegExp, (match: RegExpExecArray, name: string) => string];

const RULES: readonly Rule[] = [
  [/^auto$/, () => 'auto'],
  [/^composer-?(\d+(?:\.\d+)?)$/, (m) => `composer-${m[1]}`],
  [/^(?:claude-)?(opus|sonnet|haiku|fable)-(\d+)(?:[.-](\d+))?$/, (m) => claude(m[1], m[2], m[3])],
  [/^claude-(\d+)(?:\.(\d+))?-(opus|sonnet|haiku|fable)$/, (m) => claude(m[3], m[1], m[2])],
  [/^codex-(\d+\.\d+)$/, (m) => `gpt-${m[1]}-codex`],
  [/^gpt-(\d+(?:\.\d+)?)-codex$/, (m) => `gpt-${m[1]}-codex`],
  [/^gpt-(\d+(?:\.\d+)?)(?:-(sol|terra|luna|mini|nano))?$/, (m) => `gpt-${m[1]}${m[2] ? `-${m[2]}` : ''}`],
  [/^(?:cursor-)?grok-(\d+\.\d+)$/, (m) => `grok-${m[1]}`],
  [/^grok-4-20/, () => 'grok-4-20'],
  [/^gemini-(\d+(?:\.\d+)?)-(pro|flash)$/, (m) => `gemini-${m[1]}-${m[2]}`],
  [/^kimi-(k[\d.]+)(-code)?$/, (m) => `kimi-${m[1]}${m[2] ?? ''}`],
  [/^glm-(\d+\.\d+)$/, (m) => `glm-${m[1]}`],
  [/^muse-spark-(\d+\.\d+)$/, (m) => `muse-spark-${m[1]}`],
];

/** Whether a bracketed parameter names the fast variant: `composer-2.5[fast=true]`, as ACP's model ids have it. */
function hasFastParameter(name: string): boolean {
  for (const [brackets] of name.matchAll(BRACKETS)) {
    for (const parameter of brackets.slice(1, -1).split(',')) {
      const [key, value] = parameter.split('=');
      if (key?.trim().toLowerCase() === 'fast' && value?.trim().toLowerCase() === 'true') return true;
    }
  }
  return false;
}

function claude(family: string | undefined, major: string | undefined, minor: string | undefined): string {
  return `claude-${family}-${major}${minor ? `-${minor}` : ''}`;
}

/**
 * The price key a model name stands for, and whether it names the fast variant; `null` for a name no rule reads
 * (the cost of its usage is then unknown). The key is not looked up: a table may lack it.
 */
export function modelKeyOf(name: string): ModelKey | null {
  if (name.length > MAX_MODEL_NAME_LENGTH) return null;
  const fastParameter = hasFastParameter(name);
  let text = name.replace(TAGS, '').replace(BRACKETS, '').trim();
  const fast = fastParameter || FAST.test(text);
  if (fast) text = text.replace(FAST, '');
  text = text.replace(CONTEXT, ' ').replace(EXTRA_HIGH, ' ').replace(EFFORT_WORDS, ' ');
  const normal = text.trim().toLowerCase().split(/\s+/).join('-');
  for (const [pattern, key] of RULES) {
    const match = pattern.exec(normal);
    if (match) return { key: key(match, normal), fast };
  }
  return null;
}
