#!/usr/bin/env -S node --max-semi-space-size=8
import { main } from '../bundle/cli.js';

// A reader that stops early (`| head`) closes the pipe: stop quietly rather than die on EPIPE.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
