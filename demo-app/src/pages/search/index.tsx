import { Button, List, SearchBar } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clearSearchHistory, rememberSearch, searchHistory } from '../../features/search/history';
import { NavBar } from '../../ui/NavBar';
import '../../features/content/articles.css';
import '../member/feedback.css';

/** Longest keyword the server takes (docs/limits.md). */
export const SEARCH_KEYWORD_MAX = 20;

/**
 * Search (spec §2 search/index): the search box and the recent searches of this device, newest first, each searched
 * again with a tap; searching opens the results (search/list).
 */
export default function Search() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [recent, setRecent] = useState(searchHistory);

  const search = (keyword: string) => {
    const words = keyword.trim();
    if (words === '') return;
    setRecent(rememberSearch(words));
    void navigate(`/search/list?${new URLSearchParams({ keyword: words }).toString()}`);
  };

  return (
    <div className="page">
      <NavBar title={t('search.title')} />
      <div className="page-actions">
        <SearchBar
          placeholder={t('search.placeholder')}
          value={typed}
          maxLength={SEARCH_KEYWORD_MAX}
          onChange={setTyped}
          onSearch={search}
          aria-label={t('search.placeholder')}
        />
        <Button block color="primary" onClick={() => search(typed)}>
          {t('search.submit')}
        </Button>
      </div>
      {recent.length > 0 && (
        <List
          header={
            <div className="search-recent-head">
              <span>{t('search.recent')}</span>
              <button
                type="button"
                className="feedback-mine"
                onClick={() => {
                  clearSearchHistory();
                  setRecent([]);
                }}
              >
                {t('search.clear')}
              </button>
            </div>
          }
        >
          {recent.map((words) => (
            <List.Item key={words} data-testid="recent-search" onClick={() => search(words)}>
              {words}
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}
