// The page side of the message map (messages.ts): ask the service worker that
// controls this page something and wait for its answer on a MessagePort.

import type { MessageReply, MessageRequest, MessageType, WorkerReply } from './messages';

export class WorkerMessageError extends Error {
  override name = 'WorkerMessageError';
}

/** The worker to talk to: the one controlling the page, else the registration's active one. */
async function worker(): Promise<ServiceWorker> {
  const container = navigator.serviceWorker;
  if (container.controller) return container.controller;
  const registration = await container.ready;
  if (!registration.active) throw new WorkerMessageError('no KubeTab service worker is active');
  return registration.active;
}

/**
 * Sends a message and resolves with the worker's answer (rejects with its
 * error). `timeoutMs` guards against a worker that was replaced mid-way;
 * `transfer` lists what the request hands over (an exec's session port).
 */
export async function askWorker<K extends MessageType>(type: K, request: MessageRequest<K>, timeoutMs = 60_000, transfer: Transferable[] = []): Promise<MessageReply<K>> {
  const target = await worker();
  const channel = new MessageChannel();
  return new Promise<MessageReply<K>>((resolve, reject) => {
    const timer = setTimeout(() => {
      channel.port1.close();
      reject(new WorkerMessageError(`the service worker did not answer ${type} within ${timeoutMs} ms`));
    }, timeoutMs);
    channel.port1.onmessage = (event: MessageEvent<WorkerReply<MessageReply<K>>>) => {
      clearTimeout(timer);
      channel.port1.close();
      const reply = event.data;
      if (reply.ok) resolve(reply.value);
      else reject(new WorkerMessageError(reply.error));
    };
    target.postMessage({ type, ...request }, [channel.port2, ...transfer]);
  });
}
