import { CheckList } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, currentLanguage, setLanguage, type Language } from '../../i18n';
import { NavBar } from '../../ui/NavBar';

/** Language page: switch between the two languages; the choice is remembered. */
export default function LanguagePage() {
  const { t, i18n } = useTranslation();
  return (
    <div className="page">
      <NavBar title={t('language.title')} />
      <CheckList
        value={[currentLanguage(i18n)]}
        onChange={(values) => {
          const next = values[0];
          if (next) void setLanguage(i18n, next as Language);
        }}
      >
        {LANGUAGES.map((language) => (
          <CheckList.Item key={language} value={language}>
            <span lang={language}>{LANGUAGE_NAMES[language]}</span>
          </CheckList.Item>
        ))}
      </CheckList>
    </div>
  );
}
