// The dependency graph as a table of event sequences: what the garbage collector is asked
// to look at next (kube's GraphBuilder.processGraphChanges and processTransitions).

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { DependencyGraph, type GraphWork, type ObjectIdentity } from './graph';

const id = (name: string, uid: string, kind = 'ConfigMap', namespace = 'default'): ObjectIdentity => ({ apiVersion: 'v1', kind, name, uid, namespace });
const ref = (i: ObjectIdentity, blockOwnerDeletion?: boolean) => ({ apiVersion: i.apiVersion, kind: i.kind, name: i.name, uid: i.uid, ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }) });
const obj = (i: ObjectIdentity, meta: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: i.name, uid: i.uid, namespace: i.namespace, ...meta } });
const names = (w: GraphWork) => ({ del: w.attemptToDelete.map((n) => n.identity.name), orphan: w.attemptToOrphan.map((n) => n.identity.name) });

const owner = id('owner', 'u-owner');
const dep = id('dep', 'u-dep');

describe('dependency graph', () => {
  it('a dependent seen before its owner creates a virtual owner to verify', () => {
    const g = new DependencyGraph();
    expect(names(g.observe(dep, undefined, obj(dep, { ownerReferences: [ref(owner)] })))).toEqual({ del: ['owner'], orphan: [] });
    expect(g.get('u-owner')!.observed).toBe(false);
    expect(names(g.observe(owner, undefined, obj(owner)))).toEqual({ del: [], orphan: [] });
    expect(g.get('u-owner')!.observed).toBe(true);
  });

  it('an owner deleted: its dependents are looked at and the owner is remembered as absent', () => {
    const g = new DependencyGraph();
    g.observe(owner, undefined, obj(owner));
    g.observe(dep, undefined, obj(dep, { ownerReferences: [ref(owner)] }));
    expect(names(g.observeDelete(owner, false))).toEqual({ del: ['dep'], orphan: [] });
    expect(g.isAbsent(owner)).toBe(true);
    expect(g.get('u-owner')).toBeUndefined();
  });

  it('deletion starting with foregroundDeletion marks the owner and looks at every dependent and the owner', () => {
    const g = new DependencyGraph();
    const before = obj(owner);
    g.observe(owner, undefined, before);
    g.observe(dep, undefined, obj(dep, { ownerReferences: [ref(owner, true)] }));
    const deleting = obj(owner, { deletionTimestamp: 'x', finalizers: ['foregroundDeletion'] });
    expect(names(g.observe(owner, before, deleting))).toEqual({ del: ['dep', 'owner'], orphan: [] });
    expect(g.get('u-owner')!.deletingDependents).toBe(true);
    expect(g.get('u-owner')!.blockingDependents().map((n) => n.identity.name)).toEqual(['dep']);
    // The same state again (a resync) starts nothing new.
    expect(names(g.observe(owner, deleting, deleting))).toEqual({ del: [], orphan: [] });
    // The blocking dependent going away lets the owner be looked at again.
    expect(names(g.observeDelete(dep, false))).toEqual({ del: ['owner'], orphan: [] });
  });

  it('deletion starting with orphan asks for orphaning', () => {
    const g = new DependencyGraph();
    g.observe(owner, undefined, obj(owner));
    expect(names(g.observe(owner, obj(owner), obj(owner, { deletionTimestamp: 'x', finalizers: ['orphan'] })))).toEqual({ del: [], orphan: ['owner'] });
  });

  it('a dependent dropping its blocking reference (or turning blockOwnerDeletion off) unblocks the owner', () => {
    const g = new DependencyGraph();
    g.observe(owner, undefined, obj(owner));
    const blocking = obj(dep, { ownerReferences: [ref(owner, true)] });
    g.observe(dep, undefined, blocking);
    const unblocked = obj(dep, { ownerReferences: [ref(owner, false)] });
    expect(names(g.observe(dep, blocking, unblocked))).toEqual({ del: ['owner'], orphan: [] });
    expect(names(g.observe(dep, unblocked, obj(dep)))).toEqual({ del: [], orphan: [] });
    expect(g.get('u-owner')!.dependents.size).toBe(0);
  });

  it('a reference naming an observed owner by other coordinates gets the dependent verified', () => {
    const g = new DependencyGraph();
    g.observe(owner, undefined, obj(owner));
    const wrongKind = { ...ref(owner), kind: 'Secret' };
    expect(names(g.observe(dep, undefined, obj(dep, { ownerReferences: [wrongKind] })))).toEqual({ del: ['dep'], orphan: [] });
  });

  it('a virtual delete of a virtual owner that dependents name differently keeps the node for them', () => {
    const g = new DependencyGraph();
    const a = id('a', 'u-a');
    const b = id('b', 'u-b');
    g.observe(a, undefined, obj(a, { ownerReferences: [ref(owner)] }));
    g.observe(b, undefined, obj(b, { ownerReferences: [{ ...ref(owner), kind: 'Secret' }] }));
    const work = g.observeDelete(owner, true);
    expect(work.attemptToDelete.map((n) => n.identity.name)).toEqual(['a', 'owner']);
    expect(g.get('u-owner')!.identity.kind).toBe('Secret');
  });
});
