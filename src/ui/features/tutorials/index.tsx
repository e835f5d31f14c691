// Feature 7: tutorials. Each is a sequence of steps that explain, let the
// person act in the console, editor or managed-fields view (opened with the
// content filled in), and check from the server's state that the step was
// done. Progress is kept across reloads. The tutorial open is in the URL:
// #/tutorials?t=<id>.

import { navigate, routeHref, useRoute } from '../../lib/router';
import { useAppStore } from '../../lib/store';
import { TUTORIALS } from './content';
import { TutorialView } from './tutorial-view';
import './tutorials.css';

export default function TutorialsView() {
  const { params } = useRoute();
  const progress = useAppStore((s) => s.tutorialProgress);
  const tutorial = TUTORIALS.find((t) => t.id === params.t);
  const lastId = useAppStore((s) => s.lastTutorial);
  const last = TUTORIALS.find((t) => t.id === lastId);
  const lastStep = last ? Math.min(progress[last.id]?.current ?? 0, last.steps.length - 1) : 0;
  return (
    <div className="view tutorials">
      <div className="view__header">
        <h1>Tutorials</h1>
        <span className="muted">Learn by doing: each step is checked against the server's state.</span>
      </div>
      {tutorial ? (
        <>
          <div className="row row--center">
            <button type="button" onClick={() => navigate('tutorials')}>
              All tutorials
            </button>
            <h2 className="tutorial__title">{tutorial.title}</h2>
          </div>
          <TutorialView tutorial={tutorial} />
        </>
      ) : (
        <>
        {last && (
          <p className="alert tutorial-continue">
            <a href={routeHref('tutorials', { t: last.id })}>
              Continue {last.title}, step {lastStep + 1}: {last.steps[lastStep]!.title}
            </a>
          </p>
        )}
        <ul className="tutorial-list">
          {TUTORIALS.map((t) => {
            const done = progress[t.id]?.done.length ?? 0;
            return (
              <li key={t.id} className="panel stack">
                <h2>
                  <a href={routeHref('tutorials', { t: t.id })}>{t.title}</a>
                </h2>
                <p>{t.summary}</p>
                <p className="muted">
                  {done === 0 ? `${t.steps.length} steps` : done === t.steps.length ? `All ${t.steps.length} steps done` : `${done} of ${t.steps.length} steps done`}
                </p>
              </li>
            );
          })}
        </ul>
        </>
      )}
    </div>
  );
}
