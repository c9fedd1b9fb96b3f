import { Button, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { PostList } from '../../features/circle/PostList';
import { ArticleList } from '../../features/content/ArticleList';
import { ProductGrid } from '../../features/shop/ProductGrid';
import { VideoList } from '../../features/content/VideoList';
import { NavBar } from '../../ui/NavBar';
import { SEARCH_KEYWORD_MAX } from './index';

/**
 * Search results (spec §2 search/list, param `keyword`): in tabs, the articles, the videos and the circle posts whose
 * title or text holds it and the products whose title does, newest first, and a way to search members by it
 * (user/user_list).
 */
export default function SearchResults() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const keyword = (params.get('keyword') ?? '').trim().slice(0, SEARCH_KEYWORD_MAX);
  const [kind, setKind] = useState('articles');
  return (
    <div className="page">
      <NavBar title={t('search.results', { keyword })} />
      <div className="page-actions">
        <Button block onClick={() => open(`user/user_list?${new URLSearchParams({ keyword }).toString()}`)}>
          {t('search.members', { keyword })}
        </Button>
      </div>
      <Tabs activeKey={kind} onChange={setKind}>
        <Tabs.Tab key="articles" title={t('search.articles')} />
        <Tabs.Tab key="videos" title={t('search.videos')} />
        <Tabs.Tab key="posts" title={t('search.posts')} />
        <Tabs.Tab key="products" title={t('search.products')} />
      </Tabs>
      {kind === 'videos' && <VideoList keyword={keyword} empty={t('search.noVideos', { keyword })} />}
      {kind === 'posts' && <PostList keyword={keyword} empty={t('search.noPosts', { keyword })} />}
      {kind === 'products' && <ProductGrid keyword={keyword} empty={t('search.noProducts', { keyword })} />}
      {kind === 'articles' && <ArticleList keyword={keyword} empty={t('search.none', { keyword })} />}
    </div>
  );
}
