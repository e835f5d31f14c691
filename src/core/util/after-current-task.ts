// Work that should wait until the current task is over, microtasks included.
//
// A write's caller continues in microtasks once the store resolves it, all the
// way to its response; work queued here runs after that, in a task of its own,
// so it does not stand between a write and its answer. A MessageChannel gives
// that task at once; setTimeout(0) would come a millisecond or more later in a
// browser. The tasks run in the order they were queued.

type Task = () => void;

let queued: Task[] = [];
let channel: MessageChannel | undefined;

function runQueued(): void {
  const tasks = queued;
  queued = [];
  for (const task of tasks) {
    try {
      task();
    } catch (err) {
      // One task failing must not keep the others from running.
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}

function schedule(): void {
  if (typeof MessageChannel !== 'function') {
    setTimeout(runQueued, 0);
    return;
  }
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = runQueued;
    // Node: a port with a listener would keep the process alive; only the tasks queued should.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  channel.port2.postMessage(undefined);
}

/** Runs `task` after the current task and every microtask it queued. */
export function afterCurrentTask(task: Task): void {
  queued.push(task);
  if (queued.length === 1) schedule();
}
