import { List, SearchBar } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClosePage } from '../../app/navigation';
import { QUHAO_KEY, searchCountries } from '../../features/member/countries';
import { NavBar } from '../../ui/NavBar';

/** Country code page: search the static list; choosing one goes back to the login page with it. */
export default function Quhao() {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const close = useClosePage();
  const found = searchCountries(query);
  return (
    <div className="page">
      <NavBar title={t('quhao.title')} />
      <div className="page-pad">
        <SearchBar placeholder={t('quhao.search')} value={query} onChange={setQuery} />
      </div>
      {found.length === 0 ? (
        <p className="empty">{t('quhao.none')}</p>
      ) : (
        <List>
          {found.map((c) => (
            <List.Item
              key={`${c.code}-${c.en}`}
              extra={`+${c.code}`}
              onClick={() => {
                sessionStorage.setItem(QUHAO_KEY, c.code);
                close();
              }}
            >
              {i18n.language === 'en' ? c.en : c.zh}
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}
