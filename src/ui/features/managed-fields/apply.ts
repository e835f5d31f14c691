// Server-side apply of one manifest to one object, as a named field manager.

import { apiFetch, errorFrom, type ApiError } from '../../lib/api/client';
import type { KubeObject } from '../../lib/api/types';

export type ApplyOutcome = { ok: true; object: KubeObject } | { ok: false; error: ApiError };

export async function applyAs(objectPath: string, manifest: string, fieldManager: string, force: boolean): Promise<ApplyOutcome> {
  const response = await apiFetch(objectPath, {
    method: 'PATCH',
    query: { fieldManager, force: force ? 'true' : undefined, fieldValidation: 'Strict' },
    headers: { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' },
    body: manifest,
  });
  if (!response.ok) return { ok: false, error: await errorFrom(response) };
  return { ok: true, object: (await response.json()) as KubeObject };
}
