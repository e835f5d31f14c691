// The tutorials, in the order the list shows them.

import type { Tutorial } from '../model';
import { deletion } from './deletion';
import { rbac } from './rbac';
import { serverSideApply } from './server-side-apply';
import { watchAndResourceVersion } from './watch';

export const TUTORIALS: readonly Tutorial[] = [serverSideApply, rbac, watchAndResourceVersion, deletion];
