/**
 * The relative links of the repository's Markdown: each must name a file or folder that exists and, when it has a
 * `#fragment`, a heading of that Markdown file, so that moving a section cannot leave a link behind it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A link that leads nowhere: where it is, what it says, and why it fails. */
export interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly reason: 'no-such-path' | 'no-such-heading';
}

/** Folders that hold no Markdown of the repository's own. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'bundle', 'generated']);

/** Every Markdown file under `root`, as paths relative to it, in name order. */
export function markdownFiles(root: string, folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...markdownFiles(root, path));
    } else if (entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, inline code marks and punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings, a repeated one numbered as GitHub numbers it (`-1`, `-2`). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideCodeBlocks(text)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line.text)?.[1];
    if (heading === undefined) continue;
    const anchor = headingAnchor(heading);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

/** The lines of a Markdown text that are not inside a fenced code block, each with its 1-based number. */
function outsideCodeBlocks(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push({ text: line, line: index + 1 });
  });
  return lines;
}

/** The link targets of a Markdown text, inline (`[text](target)`) and reference definitions (`[name]: target`). */
export function linkTargets(text: string): { target: string; line: number }[] {
  const targets: { target: string; line: number }[] = [];
  for (const { text: line, line: number } of outsideCodeBlocks(text)) {
    // Inline code may show link syntax without being a link.
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      targets.push({ target: match[1] ?? '', line: number });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition?.[1] !== undefined) targets.push({ target: definition[1], line: number });
  }
  return targets;
}

/** Whether a target leaves the repository (a URL, a mail address) and so is not checked here. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** The broken relative links of the given Markdown files of `root`. */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let found = anchorsOf.get(path);
    if (found === undefined) {
      found = headingAnchors(readFileSync(join(root, path), 'utf8'));
      anchorsOf.set(path, found);
    }
    return found;
  };
  for (const file of files) {
    for (const { target, line } of linkTargets(readFileSync(join(root, file), 'utf8'))) {
      if (isExternal(target)) continue;
      const [pathPart = '', fragment] = target.split('#', 2);
      const path = pathPart === '' ? file : relative(root, join(root, dirname(file), decodeURI(pathPart)));
      if (path.startsWith('..') || !existsSync(join(root, path))) {
        broken.push({ file, line, target, reason: 'no-such-path' });
        continue;
      }
      const isMarkdown = path.endsWith('.md') && statSync(join(root, path)).isFile();
      if (fragment !== undefined && isMarkdown && !anchors(path).has(fragment))
        broken.push({ file, line, target, reason: 'no-such-heading' });
    }
  }
  return broken;
}
