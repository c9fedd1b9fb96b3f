import { Button, ErrorBlock, SearchBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOGIN_PATH, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { FOLLOWS_QUERY, findMembers } from '../../features/member/follows';
import { MemberList } from '../../features/member/MemberList';
import { NavBar } from '../../ui/NavBar';

/** Typing waits this long before it searches (spec §9: debounce 500 ms by default). */
export const SEARCH_DEBOUNCE_MS = 500;

/** Longest keyword the server takes (docs/limits.md). */
const KEYWORD_MAX = 20;

/**
 * Find friends (spec §2 user/user_list): members whose nickname holds what is typed, or whose ID it is, newest
 * first, each to follow or to open; the newest members before anything is typed. Visitors are asked to sign in.
 */
export default function FindFriends() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  // From a search (search/list): the keyword to start with.
  const [params] = useSearchParams();
  const [typed, setTyped] = useState(() => (params.get('keyword') ?? '').slice(0, KEYWORD_MAX));
  const [keyword, setKeyword] = useState(() => typed.trim());
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const context = { token: user?.token, locale: i18n.language };
  // Under the follow lists' key, so that following someone here refreshes these lines too.
  const list = usePagedList(
    [FOLLOWS_QUERY, user?.id, 'find', keyword],
    (before) => findMembers(keyword, before, context),
    user !== null,
  );
  if (!user) {
    return (
      <div className="page">
        <NavBar title={t('find.title')} />
        <ErrorBlock status="default" title={t('find.signIn')} description="">
          <Button color="primary" onClick={() => open(LOGIN_PATH)}>
            {t('mine.signIn')}
          </Button>
        </ErrorBlock>
      </div>
    );
  }
  return (
    <div className="page">
      <NavBar title={t('find.title')} />
      <div className="page-actions">
        <SearchBar
          placeholder={t('find.placeholder')}
          value={typed}
          maxLength={KEYWORD_MAX}
          onChange={setTyped}
          onSearch={(value) => setKeyword(value.trim())}
          aria-label={t('find.placeholder')}
        />
      </div>
      <MemberList
        list={list}
        empty={<ErrorBlock status="empty" title={t('find.none', { keyword })} description="" />}
      />
    </div>
  );
}
