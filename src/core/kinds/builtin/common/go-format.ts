// Bad values as a 1.32 server prints them in field errors: Go's %#v of the
// internal types (1.34 switched to JSON; 1.32 still prints Go literals such as
// `v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, …}`).

import { GoLiteral } from '../../../errors/field-errors';
import { arr, rec, str } from './table';

const q = (s: string) => JSON.stringify(s);

export function goMapStringString(map: unknown): string {
  if (map === undefined || map === null) return 'map[string]string(nil)';
  const m = rec(map);
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `${q(k)}:${q(String(m[k]))}`)
    .join(', ')}}`;
}

export function goStringSliceText(values: unknown): string {
  if (values === undefined || values === null) return '[]string(nil)';
  return `[]string{${arr(values).map((v) => q(String(v))).join(', ')}}`;
}

/** %#v of a *metav1.LabelSelector (pointer printed as the struct for field errors). */
export function goLabelSelector(selector: unknown): GoLiteral {
  if (selector === undefined || selector === null) return new GoLiteral('(*v1.LabelSelector)(nil)');
  const s = rec(selector);
  const exprs =
    s.matchExpressions === undefined || s.matchExpressions === null
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${arr(s.matchExpressions)
          .map(rec)
          .map((e) => `v1.LabelSelectorRequirement{Key:${q(str(e.key))}, Operator:${q(str(e.operator))}, Values:${goStringSliceText(e.values)}}`)
          .join(', ')}}`;
  return new GoLiteral(`v1.LabelSelector{MatchLabels:${goMapStringString(s.matchLabels)}, MatchExpressions:${exprs}}`);
}

export function goLabels(map: unknown): GoLiteral {
  return new GoLiteral(goMapStringString(map));
}

/**
 * %#v of an intstr.IntOrString value (its String() has a pointer receiver, so
 * field errors print the struct): Type 0 with IntVal for numbers, Type 1 with StrVal.
 */
export function goIntOrString(value: unknown): GoLiteral {
  if (typeof value === 'number') return new GoLiteral(`intstr.IntOrString{Type:0, IntVal:${value}, StrVal:""}`);
  return new GoLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(String(value ?? ''))}}`);
}

/**
 * %#v of a strategy struct reported whole (an unknown Deployment strategy or
 * DaemonSet updateStrategy type). Its rollingUpdate is a pointer: Go prints an
 * address, which differs per request; a fixed one stands in for it.
 */
export function goStrategy(structName: string, rollingUpdateType: string, strategy: unknown): GoLiteral {
  const s = rec(strategy);
  const rolling = s.rollingUpdate === undefined || s.rollingUpdate === null ? 'nil' : '0xc000a2c0f0';
  return new GoLiteral(`${structName}{Type:${q(str(s.type))}, RollingUpdate:(*${rollingUpdateType})(${rolling})}`);
}
