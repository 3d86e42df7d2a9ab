/**
 * Every relative link of the repository's Markdown leads somewhere: to a file or folder that exists and, with a
 * fragment, to a heading of that file. The checker is also shown to catch each kind of broken link.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { brokenLinks, headingAnchor, headingAnchors, linkTargets, markdownFiles } from '../doc-links.ts';

const REPO_ROOT = join(import.meta.dirname, '../..');

describe("the repository's Markdown", () => {
  test('has no relative link to a missing file, folder or heading', () => {
    const files = markdownFiles(REPO_ROOT);
    expect(files).toContain('README.md');
    expect(files).toContain('packages/cli/README.md');
    const relativeLinks = files.flatMap((file) =>
      linkTargets(readFileSync(join(REPO_ROOT, file), 'utf8')).filter(
        ({ target }) => !/^[a-z]+:/.test(target),
      ),
    );
    expect(relativeLinks.length).toBeGreaterThan(100);
    expect(brokenLinks(REPO_ROOT, files)).toEqual([]);
  });
});

describe('the link checker', () => {
  const root = mkdtempSync(join(tmpdir(), 'cursor-stream-links-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs/guide.md'), '# Guide\n\n## The `summary` command\n\n## Notes\n\n## Notes\n');
  writeFileSync(
    join(root, 'README.md'),
    [
      '[fine](docs/guide.md#the-summary-command) [folder](docs) [repeat](docs/guide.md#notes-1)',
      '[gone](docs/missing.md) [no heading](docs/guide.md#exit-codes) [web](https://example.com/x.md)',
      '`[code](docs/missing.md)`',
      '```md',
      '[fenced](docs/missing.md)',
      '```',
      '[ref]: docs/other.md',
      '[self](#guide)',
    ].join('\n'),
  );

  test('names each broken link with its file, line and reason, and passes the others by', () => {
    expect(brokenLinks(root, ['README.md'])).toEqual([
      { file: 'README.md', line: 2, target: 'docs/missing.md', reason: 'no-such-path' },
      { file: 'README.md', line: 2, target: 'docs/guide.md#exit-codes', reason: 'no-such-heading' },
      { file: 'README.md', line: 7, target: 'docs/other.md', reason: 'no-such-path' },
      { file: 'README.md', line: 8, target: '#guide', reason: 'no-such-heading' },
    ]);
  });

  test('reads anchors as GitHub makes them, a repeated heading numbered', () => {
    expect(headingAnchor('`@cursor-stream/core/normalize`')).toBe('cursor-streamcorenormalize');
    expect(headingAnchor('Reports and token usage')).toBe('reports-and-token-usage');
    expect([...headingAnchors('# A\n## B, c.\n## B, c.\n```\n# not a heading\n```\n')]).toEqual([
      'a',
      'b-c',
      'b-c-1',
    ]);
  });

  test('finds inline links and reference definitions, not code', () => {
    expect(
      linkTargets('see [a](x.md "title") and `[b](y.md)`\n[c]: <z.md>\n').map(({ target }) => target),
    ).toEqual(['x.md', 'z.md']);
  });
});
