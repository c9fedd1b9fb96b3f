import { ActionSheet } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, currentLanguage, setLanguage } from '../i18n';

/**
 * The two languages as a sheet over the current page: how a visitor, who may not open member/language (spec §2),
 * switches language from the login page or the user tab. The choice is remembered like the language page's.
 */
export function LanguageSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const current = currentLanguage(i18n);
  return (
    <ActionSheet
      visible={visible}
      onClose={onClose}
      extra={t('language.title')}
      cancelText={t('common.cancel')}
      actions={LANGUAGES.map((language) => ({
        key: language,
        text: <span lang={language}>{LANGUAGE_NAMES[language]}</span>,
        bold: language === current,
      }))}
      onAction={(action) => {
        const language = LANGUAGES.find((l) => l === action.key);
        if (language) void setLanguage(i18n, language);
        onClose();
      }}
    />
  );
}
