// kubetab/server: KubeTab in a Node test process (docs/embedding.md).
//
//   import { startKubeTab } from 'kubetab/server';
//   const kube = await startKubeTab({ open: true });
//   await kube.apply(yaml);
//   … the app under test talks to kube.url; kubectl uses kube.kubeconfigPath …
//   await kube.close();

export { startKubeTab, type KubeTab } from './start';
export { KubeTabOptionsError, type KubeTabOptions, type KubeTabUser } from './options';
export { KubeTabRequestError, type KubeObject, type KindRef, type ObjectRef, type ListQuery, type WaitOptions, type ApplyOptions, type WatchEventType } from './test-client';
export type { KubeTabSnapshot } from './snapshot';
export { FaultSpecError, type FaultSpec, type FaultInjection, type InjectedFault, type CloseWatchSpec, type FaultStatusCode } from '../../core/api/faults';
export { KUBETAB_VERSION } from '../version';
