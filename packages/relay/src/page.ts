/** The live page: one HTML document and its script, both shipped in the package (no network at install or run). */

import { PAGE_SCRIPT } from './generated/page-script.ts';

/** The page's script (bundled from `page/`). */
export { PAGE_SCRIPT };

/** The page's HTML; its script is `/app.js`. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cursor-stream</title>
<style>
  body { font: 14px/1.45 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 18rem 1fr; height: 100vh; }
  aside { border-right: 1px solid #ddd; padding: 1rem; overflow: auto; background: #fafafa; }
  main { padding: 1rem 1.5rem; overflow: auto; display: flex; flex-direction: column; gap: .75rem; }
  h1 { font-size: 1rem; margin: 0 0 .75rem; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { margin: .25rem 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  li[data-status=failed] a, li[data-status=interrupted] a { color: #b00020; }
  form { display: grid; gap: .5rem; }
  textarea { width: 100%; min-height: 4rem; font: inherit; box-sizing: border-box; }
  #connection { color: #666; font-size: 12px; }
  #transcript { font-family: ui-monospace, monospace; white-space: pre-wrap; }
  .item { margin: .2rem 0; }
  .prompt { color: #555; }
  .reasoning { color: #888; font-style: italic; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .tool[data-state=running] { color: #8a6d00; }
  .tool[data-state=done] { color: #1b7f3b; }
  .tool[data-state=failed], .ending[data-state=failed] { color: #b00020; }
  .ending { font-weight: 600; border-top: 1px solid #eee; padding-top: .4rem; }
</style>
</head>
<body>
<aside>
  <h1>cursor-stream</h1>
  <form id="prompt-form">
    <textarea id="prompt" name="prompt" placeholder="Ask the agent…" required></textarea>
    <label><input id="continue" type="checkbox" checked> continue the open chat</label>
    <button id="send" type="submit">Run</button>
  </form>
  <h1 style="margin-top:1rem">Runs</h1>
  <ul id="runs"></ul>
</aside>
<main>
  <div id="connection" data-state="idle">idle</div>
  <div id="transcript"></div>
</main>
<script src="/app.js"></script>
</body>
</html>
`;
