// Values in etcd as kube-apiserver 1.32 writes them, and back to KubeTab's
// stored text.
//
// - Built-in kinds of kube-apiserver proper: the protobuf envelope
//   (`k8s\0` + runtime.Unknown{typeMeta, raw}) of the object in its storage
//   version (kube's storage media type is application/vnd.kubernetes.protobuf).
// - CRDs and APIServices (apiextensions-apiserver and kube-aggregator store
//   JSON) and custom resources: JSON as Go's encoder writes it, with the
//   trailing newline json.Encoder adds.
// - metadata.resourceVersion is never stored: kube clears it before encoding
//   (the etcd3 store's versioner) and sets it from the key's mod revision when
//   it decodes. KubeTab's stored text carries it, so it is stripped on the way
//   in and put back from modRevision on the way out.
// - KubeTab's records that are not objects are stored as their UTF-8 text.

import { canonicalObject, encodeForStorage } from '../../../core/api/object-codec';
import type { KubeObject } from '../../../core/kinds/types';
import { canEncodeProtobuf, decodeKubernetesProtobuf, encodeKubernetesProtobuf, hasProtobufMagic } from '../../../core/protobuf';
import { StorageError } from '../../../core/storage/types';
import type { MappedKey, ResourceLocation } from './kube-keys';
import { encodeJson } from '../../../core/api/negotiation/json-encode';

const JSON_STORED_GROUPS = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

/** The apiVersion and kind a built-in resource is stored as (its storage version). */
function storedTypeOf(location: ResourceLocation): { apiVersion: string; kind: string } | undefined {
  const builtin = location.builtin;
  if (!builtin) return undefined;
  const storage = builtin.versions.find((v) => v.storage) ?? builtin.versions[0];
  if (!storage) return undefined;
  return { apiVersion: builtin.group ? `${builtin.group}/${storage.name}` : storage.name, kind: builtin.kind };
}

/** Whether a location's objects are stored as protobuf (kube-apiserver's own built-ins). */
export function storedAsProtobuf(location: ResourceLocation): boolean {
  const type = storedTypeOf(location);
  return type !== undefined && !JSON_STORED_GROUPS.has(location.group) && canEncodeProtobuf(type.apiVersion, type.kind);
}

function parseObject(text: string, key: string): KubeObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StorageError(`value of ${key} is not a JSON object: ${(err as Error).message}`, key);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new StorageError(`value of ${key} is not a JSON object`, key);
  return parsed as KubeObject;
}

/** KubeTab's stored text → the bytes kube-apiserver would have written for it. */
export function encodeValue(mapped: MappedKey, text: string, key: string): Buffer {
  const location = mapped.location;
  if (!location) return Buffer.from(text, 'utf8');
  const obj = parseObject(text, key);
  if (obj.metadata) {
    const { resourceVersion: _rv, selfLink: _selfLink, ...meta } = obj.metadata;
    obj.metadata = meta;
  }
  const type = storedTypeOf(location);
  if (type) {
    obj.apiVersion = type.apiVersion;
    obj.kind = type.kind;
  }
  if (storedAsProtobuf(location)) return Buffer.from(encodeKubernetesProtobuf(obj as Record<string, unknown>, type!.apiVersion, type!.kind));
  // JSON as kube's json serializer writes it: typed kinds in Go's field order, unstructured ones with sorted keys.
  const ordered = type ? encodeForStorage(obj, false) : encodeForStorage(obj, true);
  const body = JSON.parse(ordered(0)) as KubeObject;
  delete body.metadata?.resourceVersion;
  const withType = type ? { kind: type.kind, apiVersion: type.apiVersion, ...body } : body;
  return Buffer.from(`${encodeJson(withType, { pretty: false }).trimEnd()}\n`, 'utf8');
}

/** Bytes from etcd → KubeTab's stored text at `modRevision`; undecodable bytes come back as their text (the API reports them as corrupt). */
export function decodeValue(mapped: MappedKey, bytes: Buffer, modRevision: number): string {
  const location = mapped.location;
  if (!location) return bytes.toString('utf8');
  let obj: KubeObject;
  try {
    obj = hasProtobufMagic(bytes) ? (decodeKubernetesProtobuf(bytes).object as KubeObject) : (JSON.parse(bytes.toString('utf8')) as KubeObject);
  } catch {
    return bytes.toString('utf8');
  }
  if (!obj || typeof obj !== 'object') return bytes.toString('utf8');
  // Built-in kinds are kept without kind and apiVersion in KubeTab's stored text; custom resources with them.
  return encodeForStorage(canonicalObject(obj), location.builtin === undefined)(modRevision);
}
