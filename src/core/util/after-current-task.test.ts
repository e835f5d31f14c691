import { describe, expect, it } from 'vitest';
import { afterCurrentTask } from './after-current-task';

describe('afterCurrentTask', () => {
  it('runs after the current task and every microtask it queued, in the order queued', async () => {
    const order: string[] = [];
    const done = new Promise<void>((resolve) => {
      afterCurrentTask(() => order.push('first queued'));
      void Promise.resolve()
        .then(() => order.push('microtask'))
        .then(() => Promise.resolve())
        .then(() => order.push('microtask chain'));
      afterCurrentTask(() => order.push('second queued'));
      afterCurrentTask(resolve);
      order.push('synchronous');
    });
    await done;
    expect(order).toEqual(['synchronous', 'microtask', 'microtask chain', 'first queued', 'second queued']);
  });

  it('a task that throws does not keep the next ones from running', async () => {
    const ran: string[] = [];
    const swallowed = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    await new Promise<void>((resolve) => {
      afterCurrentTask(() => {
        throw new Error('boom');
      });
      afterCurrentTask(() => ran.push('after the throw'));
      afterCurrentTask(resolve);
    });
    expect(ran).toEqual(['after the throw']);
    expect(String(await swallowed)).toContain('boom');
  });
});
