// One informer per resource (and per shape: whole objects or metadata only),
// shared by every controller that needs it, as client-go's shared informer
// factories do.

import type { ApiClient } from '../client/api-client';
import { gvrKey } from '../client/discovery';
import { Informer } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Activity } from './activity';

export class SharedInformers {
  private readonly informers = new Map<string, Informer>();
  private stopped = false;

  constructor(
    private readonly client: ApiClient,
    private readonly activity: Activity,
    private readonly log: (message: string) => void,
  ) {}

  /** The running informer of a resource, started on first use. */
  for(gvr: GroupVersionResource, metadataOnly = false): Informer {
    const key = `${gvrKey(gvr)}${metadataOnly ? '#metadata' : ''}`;
    let informer = this.informers.get(key);
    if (!informer) {
      informer = new Informer(this.client, { group: gvr.group, version: gvr.version, resource: gvr.resource }, this.activity, { metadataOnly, log: this.log });
      this.informers.set(key, informer);
      if (!this.stopped) informer.start();
    }
    return informer;
  }

  /** Stops and forgets the informer of a resource no longer served. */
  async drop(gvr: GroupVersionResource, metadataOnly = false): Promise<void> {
    const key = `${gvrKey(gvr)}${metadataOnly ? '#metadata' : ''}`;
    const informer = this.informers.get(key);
    if (!informer) return;
    this.informers.delete(key);
    await informer.stop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
