// One tutorial: its steps in order, the open one with its text, its actions
// (which open another view with content filled in, or prepare the cluster) and
// its check, which reads the server's state through the API. A step checked
// done stays done across reloads.

import { useEffect, useState } from 'react';
import { useAppStore } from '../../lib/store';
import { tutorialContext } from './context';
import type { CheckResult, Tutorial, TutorialStep } from './model';
import { Prose } from './prose';

type Outcome = { kind: 'idle' } | { kind: 'running' } | { kind: 'result'; result: CheckResult } | { kind: 'error'; message: string };

function Step({ tutorial, step, index, done }: { tutorial: Tutorial; step: TutorialStep; index: number; done: boolean }) {
  const markDone = useAppStore((s) => s.markTutorialStepDone);
  const open = useAppStore((s) => s.openTutorialStep);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [note, setNote] = useState<string | null>(null);
  const [acting, setActing] = useState(false);
  const act = async (run: TutorialStep['actions'][number]['run']) => {
    setActing(true);
    setNote(null);
    try {
      const said = await run(tutorialContext());
      if (said) setNote(said);
    } catch (e) {
      setNote(`Could not: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setActing(false);
    }
  };
  const check = async () => {
    setOutcome({ kind: 'running' });
    try {
      const result = await step.check(tutorialContext());
      setOutcome({ kind: 'result', result });
      if (result.done) markDone(tutorial.id, step.id);
    } catch (e) {
      setOutcome({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <section className="tutorial-step panel stack" aria-label={`Step ${index + 1}: ${step.title}`}>
      <h2>
        Step {index + 1}: {step.title} {done && <span className="badge badge--ok">Done</span>}
      </h2>
      <Prose paragraphs={step.body} />
      <div className="row">
        {step.actions.map((action) => (
          <button key={action.label} type="button" disabled={acting} onClick={() => void act(action.run)}>
            {action.label}
          </button>
        ))}
      </div>
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
      <div className="tutorial-check">
        <p className="muted">Check: {step.checks}</p>
        <div className="row row--center">
          <button type="button" className="primary" onClick={() => void check()} disabled={outcome.kind === 'running'}>
            {outcome.kind === 'running' ? 'Checking…' : 'Check'}
          </button>
          {index + 1 < tutorial.steps.length && (
            <button type="button" onClick={() => open(tutorial.id, index + 1)}>
              Next step
            </button>
          )}
        </div>
        {outcome.kind === 'result' && (
          <p className={`alert ${outcome.result.done ? 'tutorial-check--done' : 'alert--warn'}`} role="status" aria-label="Check result">
            {outcome.result.done ? '✓ ' : 'Not yet: '}
            {outcome.result.detail}
          </p>
        )}
        {outcome.kind === 'error' && (
          <p className="alert alert--error" role="status" aria-label="Check result">
            The check failed: {outcome.message}
          </p>
        )}
      </div>
    </section>
  );
}

export function TutorialView({ tutorial }: { tutorial: Tutorial }) {
  const progress = useAppStore((s) => s.tutorialProgress[tutorial.id]);
  const lastTutorial = useAppStore((s) => s.lastTutorial);
  // Opening a tutorial makes it the one to come back to.
  useEffect(() => {
    if (lastTutorial !== tutorial.id) useAppStore.getState().openTutorialStep(tutorial.id, useAppStore.getState().tutorialProgress[tutorial.id]?.current ?? 0);
  }, [lastTutorial, tutorial.id]);
  const open = useAppStore((s) => s.openTutorialStep);
  const reset = useAppStore((s) => s.resetTutorial);
  const done = new Set(progress?.done ?? []);
  const current = Math.min(progress?.current ?? 0, tutorial.steps.length - 1);
  const step = tutorial.steps[current]!;
  return (
    <div className="tutorial">
      <nav className="tutorial-steps" aria-label="Steps">
        <ol>
          {tutorial.steps.map((s, i) => (
            <li key={s.id}>
              <button type="button" aria-current={i === current ? 'step' : undefined} onClick={() => open(tutorial.id, i)}>
                <span className="tutorial-steps__mark" aria-hidden="true">
                  {done.has(s.id) ? '✓' : i + 1}
                </span>
                {s.title}
                {done.has(s.id) && <span className="visually-hidden"> (done)</span>}
              </button>
            </li>
          ))}
        </ol>
        <p className="muted">
          {done.size} of {tutorial.steps.length} done
        </p>
        <button type="button" className="danger" onClick={() => reset(tutorial.id)}>
          Start over
        </button>
      </nav>
      <Step key={`${tutorial.id}/${step.id}`} tutorial={tutorial} step={step} index={current} done={done.has(step.id)} />
    </div>
  );
}
