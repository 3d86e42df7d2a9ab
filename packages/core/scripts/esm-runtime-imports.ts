/**
 * Turns ajv's standalone output into a real ES module. Even with `code.esm`, ajv 8 emits
 * `const func1 = require("ajv/dist/runtime/ucs2length").default;` for its runtime helpers (ajv issue #2209), which
 * throws `require is not defined` in plain Node and browsers. Test runners supply `require`, so only a plain-Node run
 * shows it.
 */

const RUNTIME_REQUIRE = /const (\w+) = require\("(ajv\/dist\/runtime\/[\w-]+)"\)\.default;/g;

/**
 * Rewrites every runtime-helper `require` of ajv's standalone code into an ESM import.
 *
 * The helper modules are CommonJS with `exports.default`. Node's ESM loader makes the whole `exports` object the
 * default import, while a bundler that honours `__esModule` hands over `exports.default` itself; `.default ?? it`
 * takes the helper in both cases.
 *
 * @param code - ajv `standaloneCode` output compiled with `code.esm`.
 * @returns The module text, with the imports first.
 * @throws Error if any other `require` is left, so a new kind of helper fails the build rather than the browser.
 */
export function rewriteRuntimeRequires(code: string): string {
  const imports: string[] = [];
  const body = code
    .replace(/^"use strict";/, '')
    .replace(RUNTIME_REQUIRE, (_match, name: string, path: string) => {
      imports.push(`import ${name}Module from "${path}.js";`);
      return `const ${name} = ${name}Module.default ?? ${name}Module;`;
    });
  const leftover = /\brequire\s*\(/.exec(body);
  if (leftover !== null) {
    throw new Error(
      `standalone code still calls require: ${body.slice(leftover.index, leftover.index + 80)}`,
    );
  }
  return `${imports.join('\n')}\n${body}`;
}
