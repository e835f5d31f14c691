import { describe, expect, it } from 'vitest';
import { parseBuffer, parseErrorField, pathsByLine, rangeOfPath, toYaml } from './yaml-text';

describe('YAML buffers and positions', () => {
  const buffer = 'a: 1\n---\n# empty\n---\nkind: X\nspec:\n  list:\n  - name: n\n    image: i\n';

  it('splits a buffer into its non-empty documents with their offsets', () => {
    const docs = parseBuffer(buffer);
    expect(docs.map((d) => d.value)).toEqual([{ a: 1 }, { kind: 'X', spec: { list: [{ name: 'n', image: 'i' }] } }]);
    expect(buffer.slice(docs[1]!.bodyStart, docs[1]!.bodyStart + 7)).toBe('kind: X');
  });

  it('finds the text of a path, or its nearest ancestor', () => {
    const doc = parseBuffer(buffer)[1]!;
    const exact = rangeOfPath(doc.document, ['spec', 'list', 0, 'image'])!;
    expect(buffer.slice(exact.start, exact.end)).toBe('image: i');
    expect(exact.exact).toBe(true);
    const near = rangeOfPath(doc.document, ['spec', 'missing'])!;
    expect(near.exact).toBe(false);
  });

  it('reads error fields of validation causes', () => {
    expect(parseErrorField('spec.containers[0].image')).toEqual(['spec', 'containers', 0, 'image']);
    expect(parseErrorField('metadata.labels[app.kubernetes.io/name]')).toEqual(['metadata', 'labels', 'app.kubernetes.io/name']);
  });

  it('maps each line to the paths that start on it', () => {
    const text = toYaml({ spec: { list: [{ name: 'n', image: 'i' }] } });
    const byLine = pathsByLine(text);
    expect(text.split('\n')[2]).toBe('    - name: n');
    expect(byLine.get(3)).toEqual([['spec', 'list', 0], ['spec', 'list', 0, 'name']]);
  });
});
