/**
 * Which MCP tool a call ran. Every MCP call is the canonical tool `mcp`; the server and the tool are in its input, as
 * the CLI writes it (`name` is `server-tool`, beside `providerIdentifier` and `toolName`).
 */

import { isJsonObject } from '../json-values.ts';

/**
 * The name of the MCP tool an `mcp` call's input names: the CLI's `name` (`server-tool`), else its server and tool
 * joined the same way, else the tool alone; `undefined` when the input names none.
 */
export function mcpToolName(input: unknown): string | undefined {
  if (!isJsonObject(input)) return undefined;
  if (typeof input.name === 'string' && input.name !== '') return input.name;
  const { providerIdentifier: server, toolName: tool } = input;
  if (typeof server === 'string' && server !== '' && typeof tool === 'string' && tool !== '')
    return `${server}-${tool}`;
  return typeof tool === 'string' && tool !== '' ? tool : undefined;
}
