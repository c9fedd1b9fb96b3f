import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/** How dark mode is chosen: by the system's colour scheme, or forced on or off in settings. */
export type DarkModeSetting = 'system' | 'dark' | 'light';

const STORAGE_KEY = 'dark_mode';

interface Theme {
  setting: DarkModeSetting;
  /** Whether the app is dark right now. */
  dark: boolean;
  setSetting: (setting: DarkModeSetting) => void;
}

const ThemeContext = createContext<Theme | null>(null);

function readSetting(): DarkModeSetting {
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === 'dark' || stored === 'light' ? stored : 'system';
}

function systemDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

/**
 * Dark mode (spec §4): follows `prefers-color-scheme` unless settings force it; persisted. Marks the root element
 * with the `dark` class (our styles) and `data-prefers-color-scheme` (antd-mobile's own dark theme).
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [setting, setSettingState] = useState<DarkModeSetting>(readSetting);
  const [system, setSystem] = useState(systemDark);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setSystem(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const dark = setting === 'system' ? system : setting === 'dark';
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', dark);
    root.setAttribute('data-prefers-color-scheme', dark ? 'dark' : 'light');
  }, [dark]);

  const value = useMemo(
    () => ({
      setting,
      dark,
      setSetting(next: DarkModeSetting) {
        localStorage.setItem(STORAGE_KEY, next);
        setSettingState(next);
      },
    }),
    [setting, dark],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

/** The theme of the nearest {@link ThemeProvider}. */
export function useTheme(): Theme {
  const theme = useContext(ThemeContext);
  if (!theme) throw new Error('useTheme: no ThemeProvider above this component');
  return theme;
}
