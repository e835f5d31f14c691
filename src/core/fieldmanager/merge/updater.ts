// The merge engine of server-side apply (smd merge.Updater): given the live
// object, the new or applied object and every manager's field set, it
// computes the merged object and the new ownership.
//
// update: the fields an operation changed become the manager's; other
//   managers lose the fields that changed (an update never conflicts) and
//   the fields that were removed.
// apply: the applied configuration is merged into the live object; the
//   applier owns exactly what it applied; fields it applied last time and
//   no longer applies are removed unless another manager owns them; a change
//   to a field another manager owns is a conflict unless forced, and a forced
//   change takes the field away from that manager.
//
// All managers are compared in the request's version: KubeTab serves one
// schema per kind version, and entries of other versions are compared on
// the same objects.

import { FieldSet } from '../fieldpath/set';
import type { Atom } from '../schema/atom';
import { compareTyped, excludeFields, type Comparison } from '../typed/compare';
import { validationErrorsString, type ValidationError } from '../typed/errors';
import { mergeValues, NONE } from '../typed/merge';
import { ensureNamedFieldsAreMembers } from '../typed/named-fields';
import { reconcileFieldSet } from '../typed/reconcile';
import { removeItems } from '../typed/remove';
import { toFieldSet } from '../typed/to-field-set';
import { equalValues } from '../value/compare';
import { ConflictsError, conflictsFromManagers } from './conflict';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** True for an Apply entry. */
  readonly applied: boolean;
}

/** Managers by identifier. Iteration order is irrelevant to results. */
export type ManagedFieldSets = Map<string, VersionedSet>;

export interface UpdaterConfig {
  readonly root: Atom;
  /** Paths no manager may own, per API version (the strategy's reset fields, e.g. `status` on the main resource). */
  readonly ignoredFields?: ReadonlyMap<string, FieldSet>;
}

/** An internal failure of the engine (kube-apiserver reports these as 500s). */
export class UpdaterError extends Error {}

function check(errs: ValidationError[], what: string): void {
  if (errs.length > 0) throw new UpdaterError(`${what}: ${validationErrorsString(errs)}`);
}

export class Updater {
  constructor(private readonly config: UpdaterConfig) {}

  private ignored(version: string): FieldSet | undefined {
    return this.config.ignoredFields?.get(version);
  }

  private compare(lhs: unknown, rhs: unknown, what = 'failed to compare objects'): Comparison {
    const errs: ValidationError[] = [];
    const c = compareTyped(lhs, rhs, this.config.root, errs);
    check(errs, what);
    return c;
  }

  private update(oldObject: unknown, newObject: unknown, version: string, managers: ManagedFieldSets, workflow: string, force: boolean): Comparison {
    const compare = excludeFields(this.compare(oldObject, newObject), this.ignored(version));
    const versions = new Map<string, Comparison>([[version, compare]]);
    const conflicts = new Map<string, FieldSet>();
    const removed = new Map<string, FieldSet>();
    for (const [manager, ms] of managers) {
      if (manager === workflow) continue;
      let c = versions.get(ms.apiVersion);
      if (!c) {
        c = excludeFields(compare, this.ignored(ms.apiVersion));
        versions.set(ms.apiVersion, c);
      }
      const conflictSet = ms.set.intersection(c.modified.union(c.added));
      if (!conflictSet.isEmpty()) conflicts.set(manager, conflictSet);
      if (!c.removed.isEmpty()) removed.set(manager, c.removed);
    }
    if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
    for (const [manager, conflictSet] of conflicts) {
      const ms = managers.get(manager)!;
      managers.set(manager, { ...ms, set: ms.set.difference(conflictSet) });
    }
    for (const [manager, removedSet] of removed) {
      const ms = managers.get(manager)!;
      managers.set(manager, { ...ms, set: ms.set.difference(removedSet) });
    }
    for (const [manager, ms] of [...managers]) if (ms.set.isEmpty()) managers.delete(manager);
    return compare;
  }

  /** Updater.Update: ownership after a non-apply write. `managers` is not modified. */
  updateManagers(liveObject: unknown, newObject: unknown, version: string, input: ManagedFieldSets, manager: string): ManagedFieldSets {
    const managers = this.reconcile(input);
    const compare = this.update(liveObject, newObject, version, managers, manager, true);
    const previous = managers.get(manager)?.set ?? new FieldSet();
    let set = previous.union(compare.modified).union(compare.added).difference(compare.removed);
    const ignored = this.ignored(version);
    if (ignored) set = set.recursiveDifference(ignored);
    if (set.isEmpty()) managers.delete(manager);
    else managers.set(manager, { set, apiVersion: version, applied: false });
    return managers;
  }

  /**
   * Updater.Apply: the merged object (null when the live object does not
   * change) and the new ownership. Throws ConflictsError unless forced.
   */
  apply(liveObject: unknown, configObject: unknown, version: string, input: ManagedFieldSets, manager: string, force: boolean): { object: unknown; managers: ManagedFieldSets } {
    const managers = this.reconcile(input);
    const mergeErrs: ValidationError[] = [];
    let newObject = mergeValues(liveObject, configObject, this.config.root, mergeErrs);
    check(mergeErrs, 'failed to merge config');
    if (newObject === NONE) newObject = {};
    const lastSet = managers.get(manager);
    let set = toFieldSet(configObject, this.config.root);
    const ignored = this.ignored(version);
    if (ignored) set = set.recursiveDifference(ignored);
    managers.set(manager, { set, apiVersion: version, applied: true });
    newObject = this.prune(newObject, managers, lastSet);
    this.update(liveObject, newObject, version, managers, manager, force);
    return { object: equalValues(liveObject, newObject) ? null : newObject, managers };
  }

  /**
   * Removes what the applier applied last time and no longer applies, unless
   * another manager (or the applier's new configuration) owns it. Only items
   * of the last applied set are ever removed.
   */
  private prune(merged: unknown, managers: ManagedFieldSets, lastSet: VersionedSet | undefined): unknown {
    if (!lastSet || lastSet.set.isEmpty()) return merged;
    const root = this.config.root;
    const named = (s: FieldSet) => ensureNamedFieldsAreMembers(s, root);
    let pruned = removeItems(merged, named(lastSet.set), root);

    // Add back what anyone owns.
    let managed = new FieldSet();
    for (const ms of managers.values()) managed = managed.union(ms.set);
    const mergedSet = named(toFieldSet(merged, root));
    pruned = removeItems(merged, mergedSet.difference(named(toFieldSet(pruned, root)).union(named(managed))), root);

    // Add back what the applier did not own (unowned fields and fields of updaters).
    const prunedSet = named(toFieldSet(pruned, root));
    return removeItems(merged, mergedSet.difference(prunedSet).intersection(named(lastSet.set)), root);
  }

  private reconcile(input: ManagedFieldSets): ManagedFieldSets {
    const out: ManagedFieldSets = new Map();
    for (const [manager, ms] of input) {
      const reconciled = reconcileFieldSet(ms.set, this.config.root);
      out.set(manager, reconciled ? { ...ms, set: reconciled } : ms);
    }
    return out;
  }
}


