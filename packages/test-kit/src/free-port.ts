/** A free TCP port on the loopback interface, for a server a test starts in a child process. */
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago: the operating system's pick for a server that closed at once. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
