// The one message map between the page and the service worker. The API itself
// goes over fetch like any client's; messages are only for the worker's own
// life cycle.

export interface PageToWorkerMessages {
  /**
   * Take control of the pages that are not controlled yet. After a hard reload
   * (Shift+Reload) a page is never controlled by the active worker unless the
   * worker claims it again, and the API would then go to the network.
   */
  'kubetab:claim': Record<never, never>;
}

export type PageToWorkerMessage = {
  [K in keyof PageToWorkerMessages]: { readonly type: K } & PageToWorkerMessages[K];
}[keyof PageToWorkerMessages];

const PAGE_TO_WORKER_TYPES: ReadonlySet<string> = new Set<keyof PageToWorkerMessages>(['kubetab:claim']);

export function isPageToWorkerMessage(data: unknown): data is PageToWorkerMessage {
  return typeof data === 'object' && data !== null && PAGE_TO_WORKER_TYPES.has((data as { type?: unknown }).type as string);
}
