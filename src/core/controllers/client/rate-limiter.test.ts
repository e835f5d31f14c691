import { describe, expect, it } from 'vitest';
import { TokenBucket } from './rate-limiter';

describe('TokenBucket (client-go\'s client-side rate limit)', () => {
  it('lets a burst through at once, then one request per 1/qps seconds', async () => {
    let now = 0;
    const bucket = new TokenBucket({ qps: 10, burst: 3 }, () => now);
    for (let i = 0; i < 3; i++) await bucket.wait();
    // The fourth must wait for a refill: it resolves only once the host's time has moved 100 ms.
    let fourth = false;
    const pending = bucket.wait().then(() => (fourth = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fourth).toBe(false);
    now += 100;
    await pending;
    expect(fourth).toBe(true);
  });

  it('refills up to the burst, never beyond it', async () => {
    let now = 0;
    const bucket = new TokenBucket({ qps: 100, burst: 2 }, () => now);
    now += 60_000;
    await bucket.wait();
    await bucket.wait();
    let third = false;
    const pending = bucket.wait().then(() => (third = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(third).toBe(false);
    now += 10;
    await pending;
    expect(third).toBe(true);
  });
});
