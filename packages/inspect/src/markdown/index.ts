/**
 * `@cursor-stream/inspect/markdown`: assistant text as Markdown, rendered by markdown-it with raw HTML off, as the
 * report and the live page show it: what a log holds is shown, never run. Links open away from the page, images become
 * links, so that a log cannot make a page load anything, and a table's alignment is a class rather than a `style`
 * attribute, so that a page whose policy allows no inline style shows it whole.
 */

import MarkdownIt from 'markdown-it';

/** Past this length a text is shown as it is: rendering it again on every delta would cost too much. */
export const MAX_MARKDOWN_LENGTH = 200_000;

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const renderToken: NonNullable<MarkdownIt['renderer']['rules']['link_open']> = (
  tokens,
  index,
  options,
  _env,
  self,
) => self.renderToken(tokens, index, options);

markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('rel', 'noopener noreferrer nofollow');
  tokens[index]?.attrSet('target', '_blank');
  return renderToken(tokens, index, options, env, self);
};

markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index];
  const source = token?.attrGet('src') ?? '';
  const alt = self.renderInlineAsText(token?.children ?? [], options, env) || source;
  const escapeHtml = markdown.utils.escapeHtml;
  return `<a href="${escapeHtml(source)}" rel="noopener noreferrer nofollow" target="_blank">${escapeHtml(`image: ${alt}`)}</a>`;
};

/** A cell's `style="text-align:right"` (markdown-it's way) as `class="align-right"`. */
const alignedCell: NonNullable<MarkdownIt['renderer']['rules']['td_open']> = (
  tokens,
  index,
  options,
  _env,
  self,
) => {
  const token = tokens[index];
  const align = /^text-align:(left|center|right)$/.exec(token?.attrGet('style') ?? '')?.[1];
  if (token !== undefined && token.attrGet('style') !== null) {
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    if (align !== undefined) token.attrJoin('class', `align-${align}`);
  }
  return self.renderToken(tokens, index, options);
};
markdown.renderer.rules.td_open = alignedCell;
markdown.renderer.rules.th_open = alignedCell;

/** `text` as HTML: Markdown rendered, raw HTML escaped, unsafe link schemes (`javascript:`) left as text. */
export function renderMarkdown(text: string): string {
  if (text.length > MAX_MARKDOWN_LENGTH) return `<pre>${markdown.utils.escapeHtml(text)}</pre>`;
  return markdown.render(text).trimEnd();
}
