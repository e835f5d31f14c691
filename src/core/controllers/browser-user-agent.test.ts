// A browser drops User-Agent from a Request built by script (Chromium does:
// `new Request(url, { headers: { 'User-Agent': … } })` has none). The in-worker
// controllers still act as who they are and own what they write: the server
// takes their User-Agent from the client, not only from the request's headers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/api-harness';
import { manualClock } from '../clock';

/** Request as Chromium builds it: without the User-Agent the script asked for. */
class BrowserRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    this.headers.delete('user-agent');
  }
}

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  vi.unstubAllGlobals();
});

describe('controllers in a browser', () => {
  it("write as kube-controller-manager's field manager though their requests carry no User-Agent", async () => {
    vi.stubGlobal('Request', BrowserRequest);
    expect(new Request('http://x/', { headers: { 'User-Agent': 'kube-controller-manager/v1.32.0' } }).headers.get('user-agent')).toBeNull();
    t = await startTestServer({}, manualClock(), ['root-ca-cert-publisher']);
    let managers: string[] = [];
    for (let i = 0; i < 200 && managers.length === 0; i++) {
      const got = await t.get('/api/v1/namespaces/default/configmaps/kube-root-ca.crt');
      if (got.status === 200) managers = got.body.metadata.managedFields.map((f: { manager: string }) => f.manager);
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(managers).toEqual(['kube-controller-manager']);
  });
});
