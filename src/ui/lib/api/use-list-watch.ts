import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { ListWatch, type ListWatchOptions, type ListWatchSnapshot } from './list-watch';

const IDLE: ListWatchSnapshot = {
  phase: 'stopped',
  error: null,
  resourceVersion: '',
  columns: [],
  items: [],
  events: 0,
  lists: 0,
};
const noop = () => () => {};
const idle = () => IDLE;

/**
 * Keeps a collection current by list-then-watch while the component is
 * mounted. Pass null to watch nothing. A new ListWatch starts whenever the
 * options change (path, selectors, mode).
 */
export function useListWatch(options: ListWatchOptions | null): ListWatchSnapshot {
  const key = options ? JSON.stringify(options) : '';
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const listWatch = useMemo(() => (options ? new ListWatch(options) : null), [key]);
  useEffect(() => {
    if (!listWatch) return;
    listWatch.start();
    return () => listWatch.stop();
  }, [listWatch]);
  return useSyncExternalStore(listWatch?.subscribe ?? noop, listWatch?.getSnapshot ?? idle);
}
