import { useEffect } from 'react';
import { useAppStore } from '../lib/store';

/** Light/dark switch; the theme is applied to <html> as data-theme. */
export function ThemeToggle() {
  const theme = useAppStore((s) => s.theme);
  const toggle = useAppStore((s) => s.toggleTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return (
    <button type="button" className="theme-toggle" aria-label="Dark theme" aria-pressed={theme === 'dark'} onClick={toggle} title="Switch between light and dark">
      <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span> <span className="theme-toggle__text">Dark theme</span>
    </button>
  );
}
