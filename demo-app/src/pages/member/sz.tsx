import { List, Selector } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { useTheme, type DarkModeSetting } from '../../app/theme';
import { LANGUAGE_NAMES, currentLanguage } from '../../i18n';
import { NavBar } from '../../ui/NavBar';

/**
 * Settings: the profile entry (edit info), dark mode (follow system, on, off), the language entry, the agreements,
 * real-name certification (marked once passed), notification settings, shipping addresses, the block list and account
 * cancellation.
 */
export default function Settings() {
  const { t, i18n } = useTranslation();
  const { setting, setSetting } = useTheme();
  const open = useNavigateTo();
  const { user } = useSession();
  const options: { label: string; value: DarkModeSetting }[] = [
    { label: t('settings.followSystem'), value: 'system' },
    { label: t('settings.on'), value: 'dark' },
    { label: t('settings.off'), value: 'light' },
  ];
  return (
    <div className="page">
      <NavBar title={t('settings.title')} />
      <List>
        <List.Item onClick={() => open('member/sz-user')}>{t('settings.profile')}</List.Item>
      </List>
      <List header={t('settings.darkMode')}>
        <List.Item>
          <Selector
            aria-label={t('settings.darkMode')}
            options={options}
            value={[setting]}
            onChange={(values) => {
              const next = values[0];
              if (next) setSetting(next);
            }}
          />
        </List.Item>
      </List>
      <List>
        <List.Item onClick={() => open('member/language')} extra={LANGUAGE_NAMES[currentLanguage(i18n)]}>
          {t('settings.language')}
        </List.Item>
      </List>
      <List>
        <List.Item onClick={() => open('public/agreement')}>{t('settings.userAgreement')}</List.Item>
        <List.Item onClick={() => open('public/privacy')}>{t('settings.privacyPolicy')}</List.Item>
      </List>
      <List>
        <List.Item onClick={() => open('member/renzheng')} extra={user?.shiming === 1 ? t('home.verified') : undefined}>
          {t('cert.title')}
        </List.Item>
        <List.Item onClick={() => open('member/sz-notify')}>{t('notify.settingsTitle')}</List.Item>
        <List.Item onClick={() => open('member/address')}>{t('settings.addresses')}</List.Item>
        <List.Item onClick={() => open('member/lahei')}>{t('settings.blockList')}</List.Item>
        <List.Item onClick={() => open('article/jubao_view')}>{t('report.mine')}</List.Item>
        <List.Item onClick={() => open('member/out')}>{t('settings.cancelAccount')}</List.Item>
      </List>
    </div>
  );
}
