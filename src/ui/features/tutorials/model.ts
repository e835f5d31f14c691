// A tutorial is a sequence of steps. Each step explains (paragraphs, with
// `code` in backticks), offers actions (open the console, the editor or the
// managed-fields view with content filled in, or prepare the cluster), and
// checks that it was done by reading the server's state through the API.

import type { TutorialContext } from './context';

export interface CheckResult {
  readonly done: boolean;
  /** What was found (shown either way). */
  readonly detail: string;
}

export interface StepAction {
  readonly label: string;
  /** Returns a line to show when it prepared something, else nothing. */
  run(ctx: TutorialContext): Promise<string | void>;
}

export interface TutorialStep {
  readonly id: string;
  readonly title: string;
  readonly body: readonly string[];
  readonly actions: readonly StepAction[];
  /** What the check looks for, said before it runs. */
  readonly checks: string;
  check(ctx: TutorialContext): Promise<CheckResult>;
}

export interface Tutorial {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly steps: readonly TutorialStep[];
}

export const pass = (detail: string): CheckResult => ({ done: true, detail });
export const fail = (detail: string): CheckResult => ({ done: false, detail });
