/** Light, dark, or the system's choice (prefers-color-scheme), kept in localStorage. */
export type Theme = 'system' | 'light' | 'dark';
const STORAGE = 'tollgate-theme';

export function storedTheme(): Theme {
  const value = localStorage.getItem(STORAGE);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(theme: Theme): void {
  if (theme === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', theme);
  if (theme === 'system') localStorage.removeItem(STORAGE);
  else localStorage.setItem(STORAGE, theme);
}

export function nextTheme(theme: Theme): Theme {
  return theme === 'system' ? 'light' : theme === 'light' ? 'dark' : 'system';
}
