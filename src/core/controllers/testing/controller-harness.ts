// A test server with the controllers running against it as clients, for the
// controllers' own tests.

import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { startControllers, type RunningControllers, type StartControllersOptions } from '../index';

export interface ControllerTestBed {
  readonly ts: TestServer;
  readonly controllers: RunningControllers;
  readonly logs: string[];
  /** Waits until the controllers have processed everything seen so far. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startControllerTestBed(options: Partial<Omit<StartControllersOptions, 'send' | 'clock'>> = {}): Promise<ControllerTestBed> {
  const ts = await startTestServer();
  const logs: string[] = [];
  const controllers = startControllers({
    send: (r) => ts.server.handle(r),
    clock: ts.clock,
    log: (m) => logs.push(m),
    bootstrap: { leaseRenewIntervalMs: 0, ...options.bootstrap },
    ...options,
  });
  await controllers.idle();
  return {
    ts,
    controllers,
    logs,
    idle: () => controllers.idle(),
    async close() {
      await controllers.stop();
      await ts.close();
    },
  };
}
