/**
 * Checks the body of `POST /api/runs`: every field typed and bounded, the workspace inside the allowed root (the root
 * given as a real path).
 */

import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { RunRequest } from './run-manager.ts';

/** A body that is not a run request, with what is wrong. */
export interface RunRequestProblem {
  problem: string;
}

const CHAT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;

function optionalString(
  body: Record<string, unknown>,
  key: string,
  pattern: RegExp,
): string | undefined | RunRequestProblem {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) return { problem: `${key} must match ${pattern}` };
  return value;
}

function isInside(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

/**
 * The workspace a request names, as the file system names it: `root` is already real, and the path is resolved
 * through its symbolic links before it is checked, so that a link inside the root cannot lead outside it.
 */
function workspaceOf(value: unknown, root: string): string | undefined | RunRequestProblem {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '' || value.includes('\0'))
    return { problem: 'workspace must be a path' };
  const path = resolve(root, value);
  if (!isInside(root, path)) return { problem: "workspace must be inside the relay's workspace root" };
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { problem: 'workspace does not exist' };
  }
  if (!isInside(root, real)) return { problem: "workspace must be inside the relay's workspace root" };
  try {
    if (!statSync(real).isDirectory()) return { problem: 'workspace must be a directory' };
  } catch {
    return { problem: 'workspace does not exist' };
  }
  return real;
}

const isProblem = (value: unknown): value is RunRequestProblem =>
  typeof value === 'object' && value !== null && 'problem' in value;

/** The run request in `body`, or what is wrong with it. */
export function parseRunRequest(
  body: unknown,
  limits: { maxPromptBytes: number; workspaceRoot: string },
): RunRequest | RunRequestProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problem: 'the body must be an object' };
  const fields = body as Record<string, unknown>;
  const prompt = fields.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return { problem: 'prompt must be a non-empty string' };
  if (Buffer.byteLength(prompt) > limits.maxPromptBytes) {
    return { problem: `prompt is larger than ${limits.maxPromptBytes} bytes` };
  }
  const mode = fields.mode;
  if (mode !== undefined && mode !== null && mode !== 'plan' && mode !== 'ask') {
    return { problem: 'mode must be "plan" or "ask"' };
  }
  const chatId = optionalString(fields, 'chatId', CHAT_ID);
  const model = optionalString(fields, 'model', MODEL);
  const workspace = workspaceOf(fields.workspace, limits.workspaceRoot);
  for (const value of [chatId, model, workspace]) if (isProblem(value)) return value;
  const request: RunRequest = { prompt };
  if (typeof chatId === 'string') request.chatId = chatId;
  if (typeof model === 'string') request.model = model;
  if (mode === 'plan' || mode === 'ask') request.mode = mode;
  if (typeof workspace === 'string') request.workspace = workspace;
  return request;
}
