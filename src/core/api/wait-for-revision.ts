// Waiting for the store to reach a resourceVersion a client names that the
// server has not seen yet (kube-apiserver's watch cache waits up to 3 s
// before answering 504 "Too large resource version").

import type { MvccStore } from '../storage/types';

export function waitForRevision(store: MvccStore, revision: number, timeoutMs: number): Promise<boolean> {
  if (store.currentRevision() >= revision) return Promise.resolve(true);
  return new Promise((resolve) => {
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      handle.cancel();
      resolve(ok);
    };
    const handle = store.watch(
      { prefix: '/', afterRevision: store.currentRevision() },
      {
        onEvent: (event) => {
          if (event.revision >= revision) finish(true);
        },
        onClose: () => finish(false),
      },
    );
    const timer = setTimeout(() => finish(store.currentRevision() >= revision), timeoutMs);
  });
}
