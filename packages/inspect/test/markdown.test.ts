import { MAX_MARKDOWN_LENGTH, renderMarkdown } from '@cursor-stream/inspect/markdown';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

describe('Markdown of assistant text', () => {
  test('renders headings, lists, emphasis and code fences', () => {
    expect(renderMarkdown('## Fixed\n\n- one **bold**\n\n```ts\nconst a = 1 < 2;\n```')).toBe(
      '<h2>Fixed</h2>\n<ul>\n<li>one <strong>bold</strong></li>\n</ul>\n' +
        '<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>',
    );
  });

  test('shows raw HTML as text, and never links a script URL', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script> <img src=x onerror=alert(1)> [go](javascript:alert(1))',
    );
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('[go](javascript:alert(1))');
  });

  test('a link opens away from the page; an image becomes a link, so nothing is loaded', () => {
    expect(renderMarkdown('[docs](https://example.com/a) ![chart](https://example.com/c.png)')).toBe(
      '<p><a href="https://example.com/a" rel="noopener noreferrer nofollow" target="_blank">docs</a> ' +
        '<a href="https://example.com/c.png" rel="noopener noreferrer nofollow" target="_blank">image: chart</a></p>',
    );
  });

  test('a text past the bound is shown as it is, escaped', () => {
    const long = `<b>${'x'.repeat(MAX_MARKDOWN_LENGTH)}`;
    expect(renderMarkdown(long)).toBe(`<pre>&lt;b&gt;${'x'.repeat(MAX_MARKDOWN_LENGTH)}</pre>`);
  });

  propTest.prop([fc.string({ maxLength: 300 })])(
    'no text makes an element that runs or loads anything',
    (text) => {
      const html = renderMarkdown(`${text}<script>x</script><iframe src=y>`);
      expect(html).not.toMatch(/<(?:script|iframe|img|object|embed|style|link|form)\b/i);
      expect(html).not.toMatch(/\son[a-z]+=/i);
    },
  );
});

describe('a Markdown table', () => {
  test('says its alignment by class, never by a style attribute', () => {
    const html = renderMarkdown('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |');
    expect(html).not.toContain('style=');
    expect(html).toContain('<th class="align-left">a</th>');
    expect(html).toContain('<td class="align-center">2</td>');
    expect(html).toContain('<td class="align-right">3</td>');
  });
});
