import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startControllerTestBed, type ControllerTestBed } from '../testing/controller-harness';

const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';
const PL = '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations';

describe('APF configuration: the Dangling condition of FlowSchemas', () => {
  let bed: ControllerTestBed;
  beforeEach(async () => {
    bed = await startControllerTestBed({ enabled: ['bootstrap', 'priority-and-fairness-config'], asInternalClients: true });
  });
  afterEach(() => bed.close());

  const dangling = async (name: string) => ((await bed.ts.get(`${FS}/${name}`)).body.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Dangling');

  it('marks the default FlowSchemas as referring to existing priority levels, owned by kube\'s field manager', async () => {
    await bed.idle();
    expect(await dangling('catch-all')).toMatchObject({
      type: 'Dangling',
      status: 'False',
      reason: 'Found',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "catch-all" and it exists',
    });
    const fs = (await bed.ts.get(`${FS}/catch-all`)).body;
    expect(fs.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain('api-priority-and-fairness-config-consumer-v1');
  });

  it('says True/NotFound for a missing priority level, and False once it exists', async () => {
    await bed.idle();
    const created = await bed.ts.post(FS, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'orphan' },
      spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 500 },
    });
    expect(created.status).toBe(201);
    await bed.idle();
    expect(await dangling('orphan')).toMatchObject({
      status: 'True',
      reason: 'NotFound',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "nowhere" but there is no such object',
    });
    expect((await bed.ts.post(PL, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'nowhere' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } })).status).toBe(201);
    await bed.idle();
    expect(await dangling('orphan')).toMatchObject({ status: 'False', reason: 'Found' });
  });
});
