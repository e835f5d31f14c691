// Where objects live in the store: /registry/<group|core>/<resource>/[<namespace>/]<name>.
// The group is part of the key so that resources of the same name in
// different groups (events in core and events.k8s.io share one, but custom
// resources may collide) never mix; kinds served in several groups under one
// storage (events) pass the storage group explicitly.

export interface StorageLocation {
  readonly group: string;
  readonly resource: string;
}

export function resourcePrefix(location: StorageLocation): string {
  return `/registry/${location.group || 'core'}/${location.resource}/`;
}

export function collectionPrefix(location: StorageLocation, namespace: string): string {
  return namespace ? `${resourcePrefix(location)}${namespace}/` : resourcePrefix(location);
}

export function objectKey(location: StorageLocation, namespace: string, name: string): string {
  return `${collectionPrefix(location, namespace)}${name}`;
}
