// smd's ValidationErrors: a message at a field path. kube-apiserver prints
// them inside its own messages ("failed to create typed patch object (…): …").

export interface ValidationError {
  /** Path string, e.g. `.spec.template.spec.containers[name="a"].ports`. */
  readonly path: string;
  readonly message: string;
}

export function validationErrorString(e: ValidationError): string {
  return e.path === '' ? e.message : `${e.path}: ${e.message}`;
}

/** ValidationErrors.Error(): one error as is, several under "errors:". */
export function validationErrorsString(errs: readonly ValidationError[]): string {
  if (errs.length === 1) return validationErrorString(errs[0]!);
  return ['errors:', ...errs.map((e) => '  ' + validationErrorString(e))].join('\n');
}

/** Thrown by the typed layer when a value does not fit its schema. */
export class TypedError extends Error {
  constructor(readonly errors: readonly ValidationError[]) {
    super(validationErrorsString(errors));
    this.name = 'TypedError';
  }
}
