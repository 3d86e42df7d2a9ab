/** The consumer of each command, loaded by a worker for the one command it reads for. */

import type { CommandSetup, ConsumerFactory } from './range-consumer.ts';

/** The consumer factory for a command; only that command's code is loaded. */
export async function consumerFactoryFor(setup: CommandSetup): Promise<ConsumerFactory> {
  switch (setup.command) {
    case 'normalize':
      return (await import('./consumers/normalize.ts')).normalizeConsumer;
    case 'summary': {
      const { summaryConsumer } = await import('./consumers/summary.ts');
      return (skip) => summaryConsumer(setup, skip);
    }
    case 'validate': {
      const { validateConsumerFactory } = await import('./consumers/validate.ts');
      return validateConsumerFactory(setup);
    }
    case 'usage': {
      const { usageConsumer } = await import('./consumers/usage.ts');
      return (skip) => usageConsumer(setup, skip);
    }
  }
}
