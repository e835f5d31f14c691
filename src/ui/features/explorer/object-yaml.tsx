// The object's YAML, live (watched by name), managedFields folded away
// unless asked for.

import { useState } from 'react';
import { toYaml } from '../../lib/yaml/yaml-text';
import type { KubeObject } from '../../lib/api/types';

export function withoutManagedFields(object: KubeObject): KubeObject {
  if (!object.metadata?.managedFields) return object;
  const { managedFields: _omitted, ...metadata } = object.metadata;
  return { ...object, metadata };
}

export function ObjectYaml({ object }: { object: KubeObject }) {
  const [showManaged, setShowManaged] = useState(false);
  return (
    <div className="stack">
      <label className="check">
        <input type="checkbox" checked={showManaged} onChange={(e) => setShowManaged(e.target.checked)} />
        Show managedFields
      </label>
      <pre className="code explorer__yaml" aria-label="Object YAML" tabIndex={0}>
        {toYaml(showManaged ? object : withoutManagedFields(object))}
      </pre>
    </div>
  );
}
