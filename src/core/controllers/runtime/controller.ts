// What every controller gets and gives. A controller is a client of the API:
// it reaches the server only through its ApiClient (and the shared
// informers, which use the API too).

import type { Clock } from '../../clock';
import type { ApiClient } from '../client/api-client';
import type { SharedInformers } from './shared-informers';
import type { Activity } from './activity';
import type { ClockTimers } from '../../util/clock-timers';
import type { EventRecorder } from './event-recorder';

export interface ControllerContext {
  /** A client whose User-Agent names this controller. */
  readonly client: ApiClient;
  readonly clock: Clock;
  readonly activity: Activity;
  readonly informers: SharedInformers;
  readonly log: (message: string) => void;
  /** Timers on the cluster's Clock, shared by every controller (moving the Clock fires them). */
  readonly timers: ClockTimers;
  /** A core/v1 event recorder with this source component (e.g. 'deployment-controller'). */
  recorder(component: string, host?: string): EventRecorder;
}

export interface Controller {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

export type ControllerFactory = (ctx: ControllerContext) => Controller;
