/**
 * Secrets found in a text and replaced by typed placeholders. Every pattern is written so that the work is linear in
 * the text whatever it holds: a pattern starts only where a word starts, its repetitions cannot split the same
 * characters two ways, and what must be scanned to an end (a private key, a quoted value) is scanned once.
 */

import { isPlaceholder, placeholderOf, type RedactionCounts, type RedactionKind } from './secret-kinds.ts';
import { isSecretName } from './secret-names.ts';

/** What a redaction is told beyond the patterns. */
export interface RedactionOptions {
  /**
   * Home directories to replace wherever they begin a path, besides the usual `/home/<name>`, `/Users/<name>` and
   * `C:\Users\<name>` (a Node caller passes `os.homedir()`).
   */
  homeDirectories?: readonly string[];
}

/** The longest secret value read after a name; a longer one is replaced up to here, and the rest left. */
const MAX_VALUE_LENGTH = 4096;

function count(counts: RedactionCounts, kind: RedactionKind): string {
  counts[kind] = (counts[kind] ?? 0) + 1;
  return placeholderOf(kind);
}

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** The body of a key cut short before its end line: base64 and line breaks, written or escaped. */
const KEY_BODY = /[A-Za-z0-9+/=\s\\]*/y;

function redactPrivateKeys(text: string, counts: RedactionCounts): string {
  if (!text.includes('PRIVATE KEY')) return text;
  let out = '';
  let from = 0;
  let endless = false;
  PRIVATE_KEY_BEGIN.lastIndex = 0;
  for (let begin = PRIVATE_KEY_BEGIN.exec(text); begin !== null; begin = PRIVATE_KEY_BEGIN.exec(text)) {
    let stop: number;
    PRIVATE_KEY_END.lastIndex = PRIVATE_KEY_BEGIN.lastIndex;
    const end = endless ? null : PRIVATE_KEY_END.exec(text);
    if (end !== null) stop = PRIVATE_KEY_END.lastIndex;
    else {
      // No end line after this one means none after any later one either: never look again.
      endless = true;
      KEY_BODY.lastIndex = PRIVATE_KEY_BEGIN.lastIndex;
      KEY_BODY.exec(text);
      stop = KEY_BODY.lastIndex;
    }
    out += text.slice(from, begin.index) + count(counts, 'private-key');
    from = stop;
    PRIVATE_KEY_BEGIN.lastIndex = stop;
  }
  return from === 0 ? text : out + text.slice(from);
}

const ENV_LINE = /^(?:declare -x |export |setenv )?([A-Za-z_][A-Za-z0-9_]{0,127})=/;
const TELLING_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'SHELL',
  'PWD',
  'LANG',
  'TERM',
  'LOGNAME',
  'HOSTNAME',
]);

/**
 * A listing of the environment (`env`, `printenv`, `export -p`): three or more lines of `NAME=value` in a row, two
 * of them variables every environment has. The whole listing goes, as any of its values may be a secret.
 */
function redactEnvironments(text: string, counts: RedactionCounts): string {
  if (!/(?:PATH|HOME|USER|SHELL)=/.test(text)) return text;
  let out = '';
  let kept = 0;
  let runStart = -1;
  let runLines = 0;
  let telling = 0;
  const close = (at: number): void => {
    if (runStart >= 0 && runLines >= 3 && telling >= 2) {
      out += text.slice(kept, runStart) + count(counts, 'environment');
      // The line break that ended the listing stays, so the next line is still a line of its own.
      kept = text[at - 1] === '\n' ? at - 1 : at;
    }
    runStart = -1;
    runLines = 0;
    telling = 0;
  };
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const match = ENV_LINE.exec(text.slice(start, Math.min(end, start + 160)));
    if (match) {
      if (runStart < 0) runStart = start;
      runLines += 1;
      if (TELLING_NAMES.has(match[1] ?? '')) telling += 1;
    } else close(start);
    if (newline === -1) {
      close(text.length);
      break;
    }
    start = newline + 1;
  }
  close(text.length);
  return kept === 0 ? text : out + text.slice(kept);
}

/** Token formats, in the order tried: a later one never sees what an earlier one replaced. */
const TOKEN_PATTERNS: readonly [RedactionKind, RegExp, ((token: string) => boolean)?][] = [
  ['cursor-api-key', /\b(?:crsr_[A-Za-z0-9]{20,}|key_[0-9a-f]{40,})/g],
  ['anthropic-api-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-api-key', /\bsk-[A-Za-z0-9_-]{20,}/g, (token) => /\d/.test(token)],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g],
  ['aws-access-key-id', /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g],
  ['slack-token', /\bxox[abposre]-[A-Za-z0-9-]{10,}/g],
  ['slack-webhook', /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{10,}/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g],
];

function redactTokens(text: string, counts: RedactionCounts): string {
  let result = text;
  for (const [kind, pattern, accept] of TOKEN_PATTERNS) {
    result = result.replace(pattern, (token) =>
      accept === undefined || accept(token) ? count(counts, kind) : token,
    );
  }
  return result;
}

// A token that looks like one: a digit in it, or too long to be a word ("Bearer authentication" is prose).
const BEARER = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/-]{8,}=*)/gi;

function redactBearers(text: string, counts: RedactionCounts): string {
  return text.replace(BEARER, (whole, scheme: string, space: string, token: string) =>
    /\d/.test(token) || token.length >= 24 ? `${scheme}${space}${count(counts, 'bearer-token')}` : whole,
  );
}

/**
 * A name and what assigns to it: `NAME=`, `name: `, `"name": `, `export NAME=`, `--name=`. Starts only where a name
 * does: not inside a name (`my-password` is one), but after a command line's dashes.
 */
const ASSIGNMENT =
  /(?<![A-Za-z0-9_.]|[A-Za-z0-9_.]-)([A-Za-z_][A-Za-z0-9_.-]{0,127})(["']?[ \t]{0,8}(:=|=|:)[ \t]{0,8})/g;
const VALUE_END = /[\s"',;}\])]/;

/** Where the value starting at `at` ends: its closing quote, or the first character that ends a bare value. */
function valueEnd(text: string, at: number): { end: number; quoted: boolean } | null {
  const quote = text[at];
  const limit = Math.min(text.length, at + MAX_VALUE_LENGTH);
  if (quote === '"' || quote === "'") {
    for (let i = at + 1; i < limit; i++) {
      const c = text[i];
      if (c === quote) return i > at + 1 ? { end: i + 1, quoted: true } : null;
      if (c === '\n') return null;
    }
    return null;
  }
  let i = at;
  while (i < limit && !VALUE_END.test(text[i] as string)) i++;
  return i > at ? { end: i, quoted: false } : null;
}

function redactSecretVariables(text: string, counts: RedactionCounts): string {
  let out = '';
  let kept = 0;
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(text); match !== null; match = ASSIGNMENT.exec(text)) {
    const name = match[1] as string;
    if (!isSecretName(name)) continue;
    const at = ASSIGNMENT.lastIndex;
    const value = valueEnd(text, at);
    if (value === null) continue;
    const inner = value.quoted ? text.slice(at + 1, value.end - 1) : text.slice(at, value.end);
    if (isPlaceholder(inner) || inner.startsWith('$') || inner.startsWith('%')) continue;
    // After a colon a bare word is often prose ("password: required"); a secret has a digit or some length.
    if (match[3] === ':' && !value.quoted && !(/\d/.test(inner) && inner.length >= 8) && inner.length < 20)
      continue;
    const placeholder = count(counts, 'secret-variable');
    out += text.slice(kept, at) + (value.quoted ? `${text[at]}${placeholder}${text[at]}` : placeholder);
    kept = value.end;
    ASSIGNMENT.lastIndex = value.end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * A command line's secret given after a space (`--password hunter2`, `--api-key sk...`, `--token $T` is left) or glued
 * to `-p` as MySQL's clients take it (`mysql -u root -pS3cret`).
 */
const SECRET_FLAG = /(?<![A-Za-z0-9_-])--([A-Za-z][A-Za-z0-9_-]{0,63})[ \t]+(?=[^\s-])/g;
const MYSQL_PASSWORD = /\b(mysql(?:dump|admin|import|check|show)?\b[^\n]{0,512}?[ \t]-p)([^\s'"]{1,128})/g;

function redactSecretFlags(text: string, counts: RedactionCounts): string {
  let result = text;
  if (result.includes('--')) {
    let out = '';
    let kept = 0;
    SECRET_FLAG.lastIndex = 0;
    for (let match = SECRET_FLAG.exec(result); match !== null; match = SECRET_FLAG.exec(result)) {
      if (!isSecretName(match[1] as string)) continue;
      const at = SECRET_FLAG.lastIndex;
      const value = valueEnd(result, at);
      if (value === null) continue;
      const inner = value.quoted ? result.slice(at + 1, value.end - 1) : result.slice(at, value.end);
      if (isPlaceholder(inner) || inner.startsWith('$') || inner.startsWith('%')) continue;
      const placeholder = count(counts, 'secret-variable');
      out +=
        result.slice(kept, at) + (value.quoted ? `${result[at]}${placeholder}${result[at]}` : placeholder);
      kept = value.end;
      SECRET_FLAG.lastIndex = value.end;
    }
    if (kept > 0) result = out + result.slice(kept);
  }
  if (!result.includes('mysql')) return result;
  return result.replace(MYSQL_PASSWORD, (_whole, before: string, secret: string) =>
    isPlaceholder(secret) || secret.startsWith('$')
      ? `${before}${secret}`
      : `${before}${count(counts, 'secret-variable')}`,
  );
}

const EMAIL =
  /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]{1,64})@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;

function redactEmails(text: string, counts: RedactionCounts): string {
  if (!text.includes('@')) return text;
  // `git@github.com:owner/repo` is a repository's address, not a person's.
  return text.replace(EMAIL, (address, local: string) =>
    local === 'git' ? address : count(counts, 'email'),
  );
}

const HOME =
  /(?:\/Users|\/home)\/(?!\[redacted)[^/\\\s"'`:;,)\]}]{1,64}|\b[A-Za-z]:(?:\\{1,2}|\/)Users(?:\\{1,2}|\/)[^/\\\s"'`:;,)\]}]{1,64}/g;

function redactHomes(text: string, counts: RedactionCounts, homes: readonly string[]): string {
  let result = text;
  for (const home of homes) {
    if (home.length < 2 || !result.includes(home)) continue;
    let out = '';
    let kept = 0;
    for (let at = result.indexOf(home); at !== -1; at = result.indexOf(home, at + home.length)) {
      const next = result[at + home.length];
      // Only where the directory ends: `/home/al` is not in `/home/alice`.
      if (next !== undefined && /[A-Za-z0-9_.-]/.test(next)) continue;
      out += result.slice(kept, at) + count(counts, 'home-directory');
      kept = at + home.length;
    }
    if (kept > 0) result = out + result.slice(kept);
  }
  return result.replace(HOME, () => count(counts, 'home-directory'));
}

/**
 * `text` with every secret found replaced by its kind's placeholder (`[redacted:github-token]`), each counted in
 * `counts`. Redacting a redacted text changes nothing.
 */
export function redactTextInto(
  text: string,
  counts: RedactionCounts,
  options: RedactionOptions = {},
): string {
  if (text.length < 6) return text;
  let result = redactPrivateKeys(text, counts);
  result = redactEnvironments(result, counts);
  result = redactTokens(result, counts);
  result = redactBearers(result, counts);
  result = redactSecretVariables(result, counts);
  result = redactSecretFlags(result, counts);
  result = redactEmails(result, counts);
  return redactHomes(result, counts, options.homeDirectories ?? []);
}
