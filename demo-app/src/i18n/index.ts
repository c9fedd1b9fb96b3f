import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { zhCN } from './zh-CN';

/** The two languages of the app (spec: two language files, chosen on the language page). */
export const LANGUAGES = ['zh-CN', 'en'] as const;

/** A language the app offers. */
export type Language = (typeof LANGUAGES)[number];

/** Each language's name, written in that language, for the language page. */
export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '简体中文', en: 'English' };

const STORAGE_KEY = 'language';

const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The stored choice, else the browser's language when it is English, else Chinese (the source language). */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  return navigator.language.toLowerCase().startsWith('en') ? 'en' : 'zh-CN';
}

/** Creates and initialises an i18next instance; separate instances keep tests independent. */
export function createI18n(language: Language = initialLanguage()): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
    lng: language,
    fallbackLng: 'zh-CN',
    // React escapes text itself; escaping here too would show entities.
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  document.documentElement.lang = language;
  return instance;
}

/** Switches the language and remembers the choice. */
export async function setLanguage(instance: i18n, language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  await instance.changeLanguage(language);
}

/** The current language of an instance, narrowed to the app's languages. */
export function currentLanguage(instance: i18n): Language {
  return isLanguage(instance.language) ? instance.language : 'zh-CN';
}
