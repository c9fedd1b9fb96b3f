import { useQuery } from '@tanstack/react-query';
import { Swiper } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { ADS_QUERY, adList, countAd, type AdPosition } from './ads';
import './ads.css';

/** How long a banner's ads are kept before they are asked again. */
const ADS_STALE_MS = 5 * 60_000;

/**
 * The banner at the top of a tab (spec §3 Ad): the operator's ads for it, turning every few seconds, each marked as an
 * ad; a tap opens its target (an outside page in the web view, or a page of the app) and is counted, as is each ad the
 * first time it shows. Nothing at all when the tab has no ads, or they cannot be read.
 */
export function AdBanner({ position }: { position: AdPosition }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const context = { locale: i18n.language };
  const ads =
    useQuery({
      queryKey: [ADS_QUERY, position],
      queryFn: () => adList(position, context),
      staleTime: ADS_STALE_MS,
      retry: false,
      enabled: true,
    }).data ?? [];
  const [index, setIndex] = useState(0);
  const current = ads[index] ?? ads[0];
  useEffect(() => {
    if (current) countAd(current.id, 'shown', context);
    // The context's locale does not change what is counted.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  if (ads.length === 0) return null;
  const many = ads.length > 1;
  return (
    <section className="ad-banner" aria-label={t('ad.banner')}>
      <Swiper
        autoplay={many}
        autoplayInterval={4000}
        loop={many}
        onIndexChange={setIndex}
        indicator={many ? undefined : () => null}
        indicatorProps={{ color: 'white' }}
      >
        {ads.map((ad) => (
          <Swiper.Item key={ad.id}>
            <button
              type="button"
              className="ad-slide"
              onClick={() => {
                countAd(ad.id, 'tap', context);
                open(ad.url);
              }}
            >
              <img src={ad.img} alt={ad.title} />
              <span className="ad-title">{ad.title}</span>
              <span className="ad-tag">{t('ad.tag')}</span>
            </button>
          </Swiper.Item>
        ))}
      </Swiper>
    </section>
  );
}
