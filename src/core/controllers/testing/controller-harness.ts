// A test server with the controllers running against it as clients, for the
// controllers' own tests.

import { startTestServer, type TestServer, type TestServerOptions } from '../../../test-support/api-harness';
import { startControllers, type RunningControllers, type StartControllersOptions } from '../index';
import { identityForUserAgent } from '../../api/access/internal-identities';

export interface ControllerTestBed {
  readonly ts: TestServer;
  readonly controllers: RunningControllers;
  readonly logs: string[];
  /** Waits until the controllers have processed everything seen so far. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface TestBedOptions extends Partial<Omit<StartControllersOptions, 'send' | 'clock'>> {
  /**
   * Serve each controller request as the identity the server gives its own
   * clients (from the User-Agent, as the hosts do) instead of with no user;
   * needed where a controller writes RBAC objects.
   */
  readonly asInternalClients?: boolean;
  /** The test server's own options (kubelet doubles, nodes). */
  readonly server?: TestServerOptions;
}

export async function startControllerTestBed(testOptions: TestBedOptions = {}): Promise<ControllerTestBed> {
  const { asInternalClients, server, ...options } = testOptions;
  const ts = server ? await startTestServer({}, undefined, [], server) : await startTestServer();
  const logs: string[] = [];
  const controllers = startControllers({
    send: (r) => (asInternalClients ? ts.server.handleAs(r, identityForUserAgent(r.headers.get('user-agent'))) : ts.server.handle(r)),
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
