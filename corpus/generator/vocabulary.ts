/**
 * Words, tokens and code-like lines the generated sessions are made of. The mix follows the real recordings: English
 * reasoning tokens with markdown and line breaks, some Chinese, Japanese and Korean, and tool output that is mostly
 * source code with quotes, backslashes, tabs and, in a share of lines, CJK text and emoji (astral characters, ZWJ
 * sequences, flags, skin tones), so the escaping and UTF-8 paths of a parser are exercised where the bytes are.
 */

import type { Random } from './random.ts';

const WORDS = [
  'the',
  'a',
  'to',
  'of',
  'and',
  'in',
  'file',
  'function',
  'test',
  'run',
  'check',
  'error',
  'value',
  'stream',
  'parser',
  'config',
  'module',
  'import',
  'return',
  'call',
  'result',
  'type',
  'user',
  'command',
  'output',
  'line',
  'build',
  'fix',
  'update',
  'read',
  'write',
  'path',
  'directory',
  'shell',
  'tool',
  'session',
  'events',
  'should',
  'need',
  'first',
  'then',
  'next',
  'let',
  'me',
  'I',
  'will',
  'look',
  'at',
  'this',
  'that',
  'it',
  'is',
  'now',
] as const;
const PUNCTUATION = ['.', ',', ':', '**', '`', '\n\n', '\n', ' -', '?'] as const;
const CJK_TOKENS = [
  '正在',
  '读取',
  '文件',
  '检查',
  '测试',
  '函数',
  '错误',
  '运行',
  '命令',
  '结果',
  '需要',
  '修复',
  '配置',
  'ファイル',
  '確認',
  'テスト',
  '実行',
  'します',
  '파일',
  '확인',
  '테스트',
  '실행',
  '합니다',
  '오류',
] as const;
const CJK_PHRASES = [
  '// 读取配置文件并校验',
  '# 设置：默认值',
  '/* テストを実行する */',
  '// 파일을 확인합니다',
  '注意：不要修改',
  '日本語のコメント',
  '错误处理逻辑',
  '한국어 주석입니다',
  '「引用」と『二重』',
  '全角：ＡＢＣ１２３',
] as const;
/** Astral emoji, ZWJ sequences, flags, skin tones and a musical symbol: every way a character spans code units. */
const EMOJI = [
  '🚀',
  '✅',
  '❌',
  '🔥',
  '👍🏽',
  '👩‍💻',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇯🇵',
  '🇩🇪',
  '🇧🇷',
  '𝄞',
  '🧪',
  '⚠️',
  '😀',
] as const;
const IDENTIFIERS = [
  'value',
  'items',
  'config',
  'parser',
  'result',
  'buffer',
  'offset',
  'options',
  'session',
  'handler',
  'record',
  'chunk',
  'index',
  'state',
  'callId',
  'payload',
  'stream',
  'cache',
  'entry',
  'count',
] as const;
const KEYWORDS = ['const', 'let', 'return', 'if', 'for', 'await', 'export', 'function', 'import'] as const;
const EXTENSIONS = ['ts', 'js', 'py', 'go', 'rs', 'md', 'json', 'tsx'] as const;
const DIRS = ['src', 'lib', 'test', 'packages/core', 'internal', 'cmd', 'docs', 'scripts'] as const;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

/** Share of tool-output lines that hold CJK text, as in the measured corpus. */
const CJK_LINE_SHARE = 0.23;
/** Share of tool-output lines that hold an emoji. */
const EMOJI_LINE_SHARE = 0.09;
/** Share of reasoning and answer tokens that are CJK. */
const CJK_TOKEN_SHARE = 0.06;

/** Letters and digits, for ids. */
export function alnum(random: Random, length: number): string {
  return random.chars(ALNUM, length);
}

/** Lower-case hex digits, for ids. */
export function hex(random: Random, length: number): string {
  return random.chars(HEX, length);
}

/** A random RFC 4122-shaped UUID (version 4 layout). */
export function uuid(random: Random): string {
  return `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`;
}

/** One model token: usually a word with its leading space, sometimes punctuation, markdown or CJK. */
export function token(random: Random): string {
  if (random.chance(CJK_TOKEN_SHARE)) return random.pick(CJK_TOKENS);
  if (random.chance(0.12)) return random.pick(PUNCTUATION);
  return ` ${random.pick(WORDS)}`;
}

/** A short sentence of `words` tokens, for prompts and assistant messages. */
export function sentence(random: Random, words: number): string {
  let text = random.chance(0.5) ? 'I' : 'Let me';
  for (let i = 0; i < words; i++)
    text += random.chance(CJK_TOKEN_SHARE) ? random.pick(CJK_TOKENS) : ` ${random.pick(WORDS)}`;
  return `${text}.`;
}

/** A workspace-relative source path. */
export function filePath(random: Random): string {
  return `${random.pick(DIRS)}/${random.pick(IDENTIFIERS)}-${random.int(1, 99)}.${random.pick(EXTENSIONS)}`;
}

/** An identifier, for grep patterns and globs. */
export function identifier(random: Random): string {
  return random.pick(IDENTIFIERS);
}

/** One line of code-like text with the characters that make JSON escaping and UTF-8 decoding work hard. */
export function codeLine(random: Random): string {
  const indent = random.chance(0.3) ? '\t'.repeat(random.int(1, 3)) : '  '.repeat(random.int(0, 4));
  const id = random.pick(IDENTIFIERS);
  let line: string;
  switch (random.int(0, 5)) {
    case 0:
      line = `${random.pick(KEYWORDS)} ${id} = "${random.pick(IDENTIFIERS)}\\n" + '${alnum(random, 6)}';`;
      break;
    case 1:
      line = `const path = "C:\\\\Users\\\\dev\\\\${id}\\\\${random.pick(IDENTIFIERS)}.${random.pick(EXTENSIONS)}";`;
      break;
    case 2:
      line = `if (${id}.length > ${random.int(0, 4096)}) throw new Error(\`bad "${id}": \${${id}}\`);`;
      break;
    case 3:
      line = `${id}.push({ "key": "${alnum(random, 8)}", "n": ${random.int(0, 1e6)} });\t// ${random.pick(WORDS)}`;
      break;
    case 4:
      line = `re = /^[\\w.-]+\\\\${id}\\s*$/u; // ${random.pick(WORDS)} ${random.pick(WORDS)}`;
      break;
    default:
      line = `return ${id}.map((x) => x.${random.pick(IDENTIFIERS)}).filter(Boolean);`;
  }
  if (random.chance(CJK_LINE_SHARE)) {
    for (let n = random.int(1, 3); n > 0; n--) line += ` ${random.pick(CJK_PHRASES)}`;
  }
  if (random.chance(EMOJI_LINE_SHARE)) line += ` ${random.pick(EMOJI)}`;
  return indent + line;
}

/**
 * Code-like text of about `bytes` UTF-8 bytes (never less), lines joined by LF.
 *
 * @param bytes - The size to reach; the text ends on the first line past it.
 */
export function codeBlock(random: Random, bytes: number): { text: string; lines: number } {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = codeLine(random);
    lines.push(line);
    // Most lines are ASCII; counting UTF-16 units only undercounts CJK and emoji, which is fine for a size target.
    size += line.length + 1;
  }
  return { text: lines.join('\n'), lines: lines.length };
}
