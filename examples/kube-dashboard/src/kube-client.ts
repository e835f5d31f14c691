// A small Kubernetes client for the example app: JSON requests with the
// bearer token, and a list-then-watch loop that keeps a map of objects up to
// date (relisting on 410 Gone and when the watch ends, as client-go does).

export interface KubeObject {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** An API error as the user sees it: the Status message and its code. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class KubeClient {
  constructor(
    readonly server: string,
    readonly token: string | undefined,
  ) {}

  async request<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = contentType;
    const response = await fetch(this.server + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // plain text (a 429): shown as it is
      }
      throw new ApiError(response.status, message);
    }
    return JSON.parse(text) as T;
  }

  /**
   * Lists, then watches from the list's resourceVersion, calling onChange with the current objects after each
   * change; lists again when the watch ends. Stops when the signal aborts.
   */
  async listWatch(path: string, onChange: (items: KubeObject[]) => void, onError: (error: ApiError) => void, signal: AbortSignal): Promise<void> {
    const items = new Map<string, KubeObject>();
    while (!signal.aborted) {
      let resourceVersion: string;
      try {
        const list = await this.request<{ items: KubeObject[]; metadata: { resourceVersion: string } }>('GET', path);
        items.clear();
        for (const item of list.items) items.set(item.metadata.name, item);
        resourceVersion = list.metadata.resourceVersion;
        onChange([...items.values()]);
      } catch (error) {
        onError(error instanceof ApiError ? error : new ApiError(0, String(error)));
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      try {
        const headers: Record<string, string> = {};
        if (this.token) headers.authorization = `Bearer ${this.token}`;
        const response = await fetch(`${this.server}${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${resourceVersion}`, { headers, signal });
        if (!response.ok || !response.body) continue;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let newline: number;
          while ((newline = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            if (!line.trim()) continue;
            const event = JSON.parse(line) as { type: string; object: KubeObject };
            if (event.type === 'ERROR') break; // 410 Gone: list again
            if (event.type === 'BOOKMARK') continue;
            if (event.type === 'DELETED') items.delete(event.object.metadata.name);
            else items.set(event.object.metadata.name, event.object);
            onChange([...items.values()]);
          }
        }
      } catch {
        // the connection broke or the page aborted: list again (or stop)
      }
    }
  }
}
