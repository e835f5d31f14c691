// Rule checked: the Table column descriptions of every built-in kind are the
// project's own short texts. kube's printers reuse the API field docs (long
// upstream prose with "More info" links); that prose must not be copied into
// the project, and no client shows these texts, so each is a short label.

import { describe, expect, it } from 'vitest';
import type { TableDefinition } from '../types';
import { builtinResources } from './index';

function everyColumn(): { where: string; name: string; description: string }[] {
  const out: { where: string; name: string; description: string }[] = [];
  for (const r of builtinResources({ featureGates: { InPlacePodVerticalScaling: true } })) {
    const tables = [r.table, ...r.versions.map((v) => v.table)].filter((t): t is TableDefinition => !!t);
    for (const t of tables) {
      for (const c of t.columns) out.push({ where: `${r.group || 'core'}/${r.plural}`, name: c.name, description: c.description ?? '' });
    }
  }
  return out;
}

describe('table column descriptions', () => {
  const columns = everyColumn();

  it('covers the printers of the built-in kinds', () => {
    expect(columns.length).toBeGreaterThan(150);
  });

  it('are short single-line labels (at most 60 characters)', () => {
    const long = columns.filter((c) => c.description.length > 60).map((c) => `${c.where} ${c.name}: ${c.description.length}`);
    expect(long).toEqual([]);
  });

  it('carry no links, line breaks, backquoted field names or API-doc phrasing', () => {
    // The tell-tale marks of the OpenAPI field docs.
    const docLike = /https?:|More info|\n|`|\bis required\b|\bDefaults to\b|\bThis field\b|\bimmutable\b/i;
    const bad = columns.filter((c) => docLike.test(c.description)).map((c) => `${c.where} ${c.name}: ${c.description}`);
    expect(bad).toEqual([]);
  });

  it('are at most one sentence (no sentence-ending period followed by more text)', () => {
    const bad = columns.filter((c) => /\.\s+\S/.test(c.description)).map((c) => `${c.where} ${c.name}: ${c.description}`);
    expect(bad).toEqual([]);
  });
});
