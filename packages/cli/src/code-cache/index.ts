/**
 * Runs the bundled command line from V8's code cache: the bin script's first step, before any of the bundle loads.
 */

export {
  type CodeCacheEnv,
  type CodeCacheOptions,
  type CodeCacheUse,
  codeCacheDir,
  type LoadedScript,
  runWithCodeCache,
} from './code-cache.ts';
