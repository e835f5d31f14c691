// Accessible tabs (WAI-ARIA tabs pattern): arrow keys move between tabs,
// only the selected tab is in the tab order, panels are labelled by tabs.

import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDefinition {
  readonly id: string;
  readonly label: ReactNode;
}

interface TabsProps {
  readonly label: string;
  readonly tabs: readonly TabDefinition[];
  readonly selected: string;
  onSelect(id: string): void;
  readonly children: ReactNode;
  readonly className?: string;
}

export function Tabs({ label, tabs, selected, onSelect, children, className }: TabsProps) {
  const base = useId();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.id === selected);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next]!.id);
    refs.current.get(tabs[next]!.id)?.focus();
  };
  return (
    <div className={`tabs ${className ?? ''}`}>
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) refs.current.set(tab.id, el);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={tab.id === selected}
            aria-controls={`${base}-panel`}
            tabIndex={tab.id === selected ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} className="tabs__panel">
        {children}
      </div>
    </div>
  );
}
