// Fault injection in the core's request path (see fault-injector.ts).

export { FaultInjector, type FaultInjection, type InjectedFault } from './fault-injector';
export { FaultSpecError, FAULT_STATUS_CODES, FAULT_VERBS, type FaultSpec, type FaultStatusCode, type CloseWatchSpec, type ServedResourceInfo } from './fault-spec';
export type { FaultRequest } from './fault-responses';
export { servedResourceInfo } from './served-resources';
