// get and list (GET on an object or a collection), with the read semantics
// of the specification's tables: resourceVersion unset / "0" / a value,
// resourceVersionMatch, limit and continue, and the Table representation.

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { KeyValue } from '../../storage/types';
import type { RequestScope, ServerContext } from '../context';
import { decodeContinue, encodeContinue } from '../continue-token';
import { parseListOptions, parseResourceVersion, validateListOptions } from '../read-options';
import { buildPredicate, type Predicate } from '../predicate';
import { decode, getObject, inOrderKeyValue, prefixFor, storedTextIsServed, toRequestVersion } from '../resource-store';
import { spliceTypeMeta } from '../object-codec';
import { isCustomResource } from '../../crd';
import { bytesResponse, objectResponse, rawJsonResponse, textResponse } from '../respond';
import { encodeJson } from '../negotiation/json-encode';
import { listToTable, objectToTable, partialObjectMetadata, partialObjectMetadataList } from '../table';
import { waitForRevision } from '../wait-for-revision';
import { streamByteParts, streamJsonList } from '../list-stream';
import { withoutProtobuf, type OutputFormat } from '../media';
import { canServeProtobuf, encodeProtobufItem, protobufListParts } from '../../protobuf';
import type { ServedResource } from '../registry';

/** How long a read for a future resourceVersion waits before 504 (kube's watch cache waits 3 s). */
const FUTURE_RV_WAIT_MS = 3000;

async function ensureFresh(ctx: ServerContext, revision: number): Promise<void> {
  if (revision <= ctx.store.currentRevision()) return;
  if (!(await waitForRevision(ctx.store, revision, FUTURE_RV_WAIT_MS))) {
    throw errors.tooLargeResourceVersion(revision, ctx.store.currentRevision(), 1);
  }
}

/**
 * Whether a resource is answered in protobuf: built-in kinds, as kube's
 * endpoints list it; custom resources have no protobuf form (kube leaves it
 * out of their StandardSerializers), nor do kinds KubeTab refuses.
 */
export function servesProtobuf(served: ServedResource): boolean {
  return (
    !isCustomResource(served) &&
    canServeProtobuf(served.apiVersion, served.definition.kind) &&
    canServeProtobuf(served.apiVersion, served.definition.listKind)
  );
}

/**
 * The scope's format for this resource: protobuf falls through to the
 * client's next acceptable type (or 406) when the resource has none.
 * Transforms (PartialObjectMetadata) are meta.k8s.io kinds with their own
 * protobuf form, for custom resources too.
 */
export function resourceOutput(scope: RequestScope): OutputFormat {
  const { output, served } = scope;
  if (output.encoding !== 'protobuf' || output.as || servesProtobuf(served)) return output;
  return withoutProtobuf(output);
}

/** An item's protobuf message bytes, kept beside the stored value like its JSON bytes (list-stream.ts). */
const protobufItems = new WeakMap<KeyValue, { apiVersion: string; bytes: Uint8Array }>();

function protobufItemBytes(ctx: ServerContext, served: ServedResource, kv: KeyValue): Uint8Array {
  const kept = protobufItems.get(kv);
  if (kept && kept.apiVersion === served.apiVersion) return kept.bytes;
  const object = toRequestVersion(served, decode(ctx, served, kv));
  const bytes = encodeProtobufItem(served.apiVersion, served.definition.kind, object as Record<string, unknown>);
  protobufItems.set(kv, { apiVersion: served.apiVersion, bytes });
  return bytes;
}

export async function handleGet(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route, served, query } = scope;
  const output = resourceOutput(scope);
  const rv = query.get('resourceVersion');
  if (rv && rv !== '0') await ensureFresh(ctx, parseResourceVersion(rv));
  const { kv, object } = await getObject(ctx, served, route.namespace, route.name);
  const shown = toRequestVersion(served, object);
  if (output.as === 'Table') return objectResponse(objectToTable(served, shown, query, ctx.clock.now()), 200, output);
  if (output.as === 'PartialObjectMetadata') return objectResponse(partialObjectMetadata(shown, output.asVersion!), 200, output);
  if (output.as) throw errors.notAcceptable(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
  // Stored text is sent as is when it is this version's encoding in kube's key order (text stored before
  // the order was kept is not: `shown` is then its ordered copy).
  if (output.encoding === 'json' && !output.pretty && storedTextIsServed(served) && shown === object) {
    return rawJsonResponse(spliceTypeMeta(kv.value, served.apiVersion, served.definition.kind), 200);
  }
  return objectResponse(shown, 200, output);
}

export interface ListResult {
  readonly items: KeyValue[];
  readonly revision: number;
  readonly continueToken: string;
  readonly remainingItemCount: number | undefined;
}

/** Reads a collection as the list tables of the specification prescribe. */
export async function readList(ctx: ServerContext, scope: RequestScope, predicate: Predicate): Promise<ListResult> {
  const options = parseListOptions(scope.query, false);
  validateListOptions(options, ctx.featureGates.enabled('WatchList'));
  const prefix = prefixFor(scope.served, scope.route.namespace);
  const resource = `${scope.served.group}/${scope.served.definition.plural}`;
  let revision: number | undefined;
  let after: string | undefined;
  let continuing = false;
  if (options.continueToken !== undefined) {
    if (options.resourceVersion !== undefined && options.resourceVersion !== '0') {
      throw errors.badRequest('specifying resource version is not allowed when using continue');
    }
    const token = decodeContinue(options.continueToken, resource);
    after = prefix + token.after;
    continuing = true;
    revision = token.revision === -1 ? undefined : token.revision;
  } else if (options.resourceVersion !== undefined && options.resourceVersion !== '0') {
    const requested = parseResourceVersion(options.resourceVersion);
    const exact = options.resourceVersionMatch === 'Exact' || (options.resourceVersionMatch === undefined && options.limit > 0);
    await ensureFresh(ctx, requested);
    if (exact) revision = requested;
  }
  if (revision !== undefined && revision < ctx.store.compactedRevision()) {
    if (continuing) {
      const lastKey = after!.slice(prefix.length);
      const err = errors.expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
      err.status.metadata.continue = encodeContinue(-1, lastKey, resource);
      throw err;
    }
    throw errors.expired('The resourceVersion for the provided list is too old.');
  }
  const range = await ctx.store.range({
    prefix,
    revision,
    after,
    limit: options.limit,
    filter: predicate.empty ? undefined : (kv) => predicate.matches(decode(ctx, scope.served, kv)),
  });
  const last = range.kvs[range.kvs.length - 1];
  const continueToken = range.more && last ? encodeContinue(range.revision, last.key.slice(prefix.length), resource) : '';
  const remainingItemCount = range.more && predicate.empty ? range.remaining : undefined;
  return { items: range.kvs, revision: range.revision, continueToken, remainingItemCount };
}

export async function handleList(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { served, query } = scope;
  const output = resourceOutput(scope);
  const predicate = buildPredicate(scope);
  const result = await readList(ctx, scope, predicate);
  const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(result.revision) };
  if (result.continueToken) listMeta.continue = result.continueToken;
  if (result.remainingItemCount !== undefined) listMeta.remainingItemCount = result.remainingItemCount;
  const needsConversion = !storedTextIsServed(served);
  const objects = (): KubeObject[] => result.items.map((kv) => toRequestVersion(served, decode(ctx, served, kv)));
  // kube-apiserver's list items of built-in kinds carry no kind and apiVersion (custom resources' do).
  const listItems = (): KubeObject[] =>
    isCustomResource(served) ? objects() : objects().map(({ kind: _kind, apiVersion: _apiVersion, ...rest }) => rest as KubeObject);
  if (output.as === 'Table') return objectResponse(listToTable(served, objects(), listMeta, query, ctx.clock.now()), 200, output);
  if (output.as === 'PartialObjectMetadataList') return objectResponse(partialObjectMetadataList(objects(), listMeta, output.asVersion!), 200, output);
  if (output.as) throw errors.notAcceptable(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
  if (output.encoding === 'protobuf') {
    // Every item encoded (or taken from its kept bytes) before the first byte leaves, so a
    // corrupt record is a Status, not a broken stream; then the list streams in chunks.
    const items = result.items.map((kv) => protobufItemBytes(ctx, served, kv));
    const parts = protobufListParts(served.apiVersion, served.definition.listKind, listMeta, items);
    return bytesResponse(streamByteParts(parts), 200, output.contentType);
  }
  // kube's custom-resource lists are unstructured: keys sorted, and `continue` is always there (empty on the last page).
  const listOf = <T>(items: T): Record<string, unknown> =>
    isCustomResource(served)
      ? {
          apiVersion: served.apiVersion,
          items,
          kind: served.definition.listKind,
          metadata: { continue: result.continueToken, ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}), resourceVersion: listMeta.resourceVersion },
        }
      : { kind: served.definition.listKind, apiVersion: served.apiVersion, metadata: listMeta, items };
  // An indented empty list is `"items": []`, which has no place for a marker: the encoder writes it.
  if (output.encoding === 'json' && !needsConversion && !(output.pretty && result.items.length === 0)) {
    // Stored text is already the response's item encoding: stream it in chunks instead of building one string,
    // indented at the items' depth for ?pretty and browsers (0333). Decoding each item first surfaces a corrupt
    // record as StorageReadError before anything is sent; text stored before the key order was kept is sent
    // reordered (inOrderKeyValue). Head and tail are the encoder's own, cut around a marker item.
    const items = result.items.map((kv) => inOrderKeyValue(ctx, served, kv));
    const shell = encodeJson(listOf([LIST_ITEMS_MARKER]), { pretty: output.pretty });
    const marker = `${output.pretty ? '    ' : ''}${JSON.stringify(LIST_ITEMS_MARKER)}`;
    const at = shell.indexOf(marker);
    return streamedList(shell.slice(0, at), items, shell.slice(at + marker.length), listCacheKey(scope), output.pretty);
  }
  return objectResponse(listOf(listItems()), 200, output);
}

/** Stands for the items in a streamed list's shell (no stored text is a bare string). */
const LIST_ITEMS_MARKER = 'kubetab:list-items';

/** Kept joined items are found again under the same prefix and query (list-stream.ts checks they are the same values). */
function listCacheKey(scope: RequestScope): string {
  return `${prefixFor(scope.served, scope.route.namespace)}?${scope.query.toString()}`;
}

function streamedList(head: string, items: readonly KeyValue[], tail: string, cacheKey: string, indented: boolean): Response {
  return bytesResponse(streamJsonList(head, items, tail, cacheKey, indented), 200, 'application/json');
}

export { textResponse };
