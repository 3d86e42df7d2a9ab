#!/usr/bin/env -S node --max-semi-space-size=8
let main;
try {
  ({ main } = await import('../bundle/cli.js'));
} catch (error) {
  // In a clone of the repository the bundle exists only after a build.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('bundle')) throw error;
  process.stderr.write('cursor-stream: the command is not built yet: run `pnpm build` first\n');
  process.exit(2);
}

// A reader that stops early (`| head`) closes the pipe: stop quietly rather than die on EPIPE. Any other failure to
// write the output (a full disk) is an I/O error: one line, exit code 2.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`cursor-stream: cannot write the output: ${error.message}\n`);
  process.exit(2);
});

process.exitCode = await main(process.argv.slice(2));
